"""A translator's files: gettext catalogues matched by msgctxt + msgid (never by position), and spreadsheets read
and written — every score against sacreBLEU on the same lines, real text of several languages, bad files refused
in one line."""

from __future__ import annotations

import csv
import datetime
import io
import json
import random

import pytest
import sacrebleu
import xlsxwriter
from python_calamine import CalamineWorkbook

from .conftest import cli, data_set

N = 300



def lines(folder, name, n=N):
    return (folder / name).read_text(encoding="utf-8").split("\n")[:n]


def po_text(entries, language="") -> str:
    """A catalogue of (msgctxt or None, msgid, msgstr, reference) entries, written as msgmerge writes one."""
    def quoted(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'

    out = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"',
           f'"Language: {language}\\n"', ""]
    for ctx, msgid, msgstr, where in entries:
        out += ([f"#: {where}"] if where else []) + ([f"msgctxt {quoted(ctx)}"] if ctx is not None else [])
        out += [f"msgid {quoted(msgid)}", f"msgstr {quoted(msgstr)}", ""]
    return "\n".join(out)


@pytest.fixture
def czech_catalogues(tmp_path):
    """A reference catalogue and a system's, from real English→Czech text: the system's entries shuffled, two
    entries sharing a msgid told apart by msgctxt."""
    folder = data_set("mtce-en-cs-medium")
    src, ref, hyp = lines(folder, "src.txt"), lines(folder, "ref1.txt"), lines(folder, "sys1.txt")
    src[1] = src[0]  # the same msgid twice: two contexts
    ctx = [("second" if i == 1 else "first" if i == 0 else None) for i in range(N)]
    ref_entries = [(ctx[i], src[i], ref[i], f"src/file{i % 7}.c:{i + 1}") for i in range(N)]
    sys_entries = [(ctx[i], src[i], hyp[i], "") for i in range(N)]
    random.Random(5).shuffle(sys_entries)
    (tmp_path / "ref.po").write_text(po_text(ref_entries, "cs"), encoding="utf-8")
    (tmp_path / "sys.po").write_text(po_text(sys_entries, "cs"), encoding="utf-8")
    return tmp_path / "ref.po", tmp_path / "sys.po", src, ref, hyp


def test_catalogues_are_matched_by_key_and_score_as_sacrebleu(capsys, czech_catalogues):
    ref_po, sys_po, src, ref, hyp = czech_catalogues
    code, out, err = cli(capsys, ref_po, "-i", sys_po, "-m", "bleu", "chrf", "-f", "json")
    assert code == 0, err
    got = {e["metric"]: e["score"] for e in json.loads(out)}
    assert got["BLEU"] == sacrebleu.corpus_bleu(hyp, [ref]).score
    assert got["chrF2"] == sacrebleu.corpus_chrf(hyp, [ref]).score
    assert "matched with the other catalogues by msgctxt + msgid" in err


def test_the_source_is_msgid_and_references_slice(capsys, czech_catalogues):
    ref_po, sys_po, src, ref, hyp = czech_catalogues
    code, out, err = cli(capsys, ref_po, "-i", sys_po, "--explain", "3", "-f", "json")
    assert code == 0, err
    code, out, err = cli(capsys, ref_po, "-i", sys_po, "--where", "po_file = 'src/file2.c:3'", "-sl", "-f", "json")
    assert code == 0, err
    assert [s["line"] for s in json.loads(out)["sentences"]] == [3]
    from bleu_gui.core.inputs.run_inputs import read_run_inputs

    inputs = read_run_inputs([sys_po], [ref_po])
    assert inputs.context.source is not None and inputs.context.source.lines == src
    assert inputs.systems[0].lines == hyp


def test_a_catalogue_as_source_is_matched_too(czech_catalogues):
    from bleu_gui.core.inputs.run_inputs import read_run_inputs

    ref_po, sys_po, src, _ref, _hyp = czech_catalogues
    inputs = read_run_inputs([sys_po], [ref_po], source=sys_po)
    assert inputs.context.source is not None and inputs.context.source.lines == src


def test_plural_forms_fuzzy_and_untranslated(tmp_path, capsys):
    ref = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\nmsgid "One file"\n'
           'msgid_plural "%d files"\nmsgstr[0] "Eine Datei"\nmsgstr[1] "%d Dateien"\n\nmsgid "Open"\nmsgstr "Öffnen"\n'
           '\nmsgid "Close"\nmsgstr "Schließen"\n')
    hyp = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n#, fuzzy\nmsgid "Open"\n'
           'msgstr "Offen"\n\nmsgid "Close"\nmsgstr ""\n\nmsgid "One file"\nmsgid_plural "%d files"\n'
           'msgstr[0] "Eine Datei"\nmsgstr[1] "%d Dateien"\n\n#~ msgid "Gone"\n#~ msgstr "Weg"\n')
    (tmp_path / "ref.po").write_text(ref, encoding="utf-8")
    (tmp_path / "sys.po").write_text(hyp, encoding="utf-8")
    code, out, err = cli(capsys, tmp_path / "ref.po", "-i", tmp_path / "sys.po", "-sl", "-f", "json")
    assert code == 0, err
    sentences = json.loads(out)["sentences"]
    assert len(sentences) == 4  # the plural entry is two segments
    expected = [sacrebleu.sentence_bleu(h, [r]).score for h, r in
                (("Eine Datei", "Eine Datei"), ("%d Dateien", "%d Dateien"), ("Offen", "Öffnen"), ("", "Schließen"))]
    assert [s["score"] for s in sentences] == expected
    assert "1 fuzzy entries read as they are" in err and "1 untranslated entries" in err
    assert "1 obsolete entries (#~) left out" in err


@pytest.mark.parametrize(("text", "said"), [
    ('msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "c"\n', r"line 4: the entry \"a\" is given twice \(first at line 1\)"),
    ('msgid "a"\nmsgstr "b"\nnonsense here\n', r"syntax error \(line 3\)"),
])
def test_bad_catalogues_are_refused_naming_the_line(tmp_path, capsys, text, said):
    (tmp_path / "ref.po").write_text('msgid "a"\nmsgstr "b"\n', encoding="utf-8")
    (tmp_path / "bad.po").write_text(text, encoding="utf-8")
    code, out, err = cli(capsys, tmp_path / "ref.po", "-i", tmp_path / "bad.po")
    assert code == 2 and out == "" and "Traceback" not in err
    import re

    assert re.search(said, err), err


def test_entries_in_one_catalogue_only_are_named(czech_catalogues, tmp_path, capsys):
    ref_po, sys_po, *_ = czech_catalogues
    text = sys_po.read_text(encoding="utf-8")
    first_entry = text.split("\n\n")[1]
    (tmp_path / "short.po").write_text(text.replace(first_entry + "\n\n", "", 1), encoding="utf-8")
    code, _out, err = cli(capsys, ref_po, "-i", tmp_path / "short.po")
    assert code == 2 and "short.po lacks 1 entries of ref.po" in err and "matched by msgctxt + msgid" in err


def test_a_compiled_catalogue_says_to_use_the_po(tmp_path, capsys):
    (tmp_path / "ref.po").write_text('msgid "a"\nmsgstr "b"\n', encoding="utf-8")
    (tmp_path / "sys.mo").write_bytes(b"\xde\x12\x04\x95\x00\x00\x00\x00")
    code, _out, err = cli(capsys, tmp_path / "ref.po", "-i", tmp_path / "sys.mo")
    assert code == 2 and "give the .po it was compiled from" in err


# -- workbooks -----------------------------------------------------------------------------------------------------

def write_workbook(path, header, rows, sheet="eval"):
    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet(sheet)
    ws.write_row(0, 0, header)
    for r, row in enumerate(rows, 1):
        for c, value in enumerate(row):
            if isinstance(value, (int, float)):
                ws.write_number(r, c, value)
            elif isinstance(value, datetime.date):
                ws.write_datetime(r, c, datetime.datetime.combine(value, datetime.time()),
                                  book.add_format({"num_format": "yyyy-mm-dd"}))
            else:
                ws.write_string(r, c, value)
    book.close()
    return path


@pytest.mark.parametrize(("name", "tokenizer"), [("wmt22-en-ja", "ja-mecab"), ("wmt22-en-zh-2ref", "zh"),
                                                 ("mtce-en-cs-medium", "13a")])
def test_a_wide_sheet_scores_each_engine_as_sacrebleu(tmp_path, capsys, name, tokenizer):
    folder = data_set(name)
    src, ref = lines(folder, "src.txt"), lines(folder, "ref1.txt")
    a, b = lines(folder, "sys1.txt"), lines(folder, "sys2.txt")
    path = write_workbook(tmp_path / "eval.xlsx", ["id", "Source", "Reference", "Engine A", "Engine B"],
                          [[i + 1, s, r, x, y] for i, (s, r, x, y) in enumerate(zip(src, ref, a, b))])
    code, out, err = cli(capsys, path, "--column", "candidate=Engine A,Engine B", "-tok", tokenizer, "-f", "json")
    assert code == 0, err
    got = {e["system"]: e["score"] for e in json.loads(out)}
    assert got == {"Engine A": sacrebleu.corpus_bleu(a, [ref], tokenize=tokenizer).score,
                   "Engine B": sacrebleu.corpus_bleu(b, [ref], tokenize=tokenizer).score}


def test_a_long_sheet_and_cells_read_as_shown(tmp_path, capsys):
    rows = [["A", 1, "3 apples", 3, datetime.date(2024, 5, 1)], ["A", 2, "x", 2.5, datetime.date(2024, 5, 2)],
            ["B", 1, "3 apples", 3, datetime.date(2024, 5, 1)], ["B", 2, "y", 2.5, datetime.date(2024, 5, 2)]]
    path = write_workbook(tmp_path / "long.xlsx", ["system", "seg_id", "target", "reference", "date"],
                          [[s, i, t, r, d] for s, i, t, r, d in rows], sheet="Sheet9")
    code, out, err = cli(capsys, path, "--sheet", "Sheet9", "-sl", "-f", "json")
    assert code == 0, err
    from bleu_gui.core.inputs.run_inputs import read_run_inputs

    inputs = read_run_inputs([], [path])
    assert [r.lines for r in inputs.references] == [["3", "2.5"]]
    assert [s.field for s in inputs.systems] == ["A", "B"]
    assert inputs.context.meta["date"] == ("2024-05-01", "2024-05-02")


@pytest.mark.parametrize(("data", "said"), [
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1rest", "encrypted (password-protected) workbook"),
    (bytes(range(256)) * 8, "not a readable workbook"),
])
def test_bad_workbooks_are_refused(tmp_path, capsys, data, said):
    (tmp_path / "x.xlsx").write_bytes(data)
    code, out, err = cli(capsys, tmp_path / "x.xlsx")
    assert code == 2 and out == "" and said in err and "Traceback" not in err


def test_a_sheet_without_a_header_or_a_missing_sheet(tmp_path, capsys):
    path = write_workbook(tmp_path / "h.xlsx", ["source", "", "x"], [["a", "b", "c"]])
    code, _out, err = cli(capsys, path)
    assert code == 2 and "row 1: the header row needs a name in every column (column 2 has none)" in err
    code, _out, err = cli(capsys, path, "--sheet", "Nope")
    assert code == 2 and "no sheet named 'Nope' (the workbook has eval)" in err


def test_exports_as_workbooks(tmp_path, capsys):
    folder = data_set("mtce-en-cs-medium")
    ref, a, b = lines(folder, "ref1.txt"), lines(folder, "sys1.txt"), lines(folder, "sys2.txt")
    for name, text in (("ref.txt", ref), ("a.txt", a), ("b.txt", b)):
        (tmp_path / name).write_text("\n".join(text) + "\n", encoding="utf-8")
    code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "a.txt", tmp_path / "b.txt", "-m", "bleu",
                         "chrf", "--export-sentences", tmp_path / "s.xlsx", "--report", tmp_path / "r.xlsx")
    assert code == 0, err
    code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "a.txt", tmp_path / "b.txt", "-m", "bleu",
                         "chrf", "--export-sentences", tmp_path / "s.csv")
    assert code == 0, err
    book = CalamineWorkbook.from_path(str(tmp_path / "s.xlsx"))
    assert book.sheet_names == ["sentences", "about"]
    sheet = book.get_sheet_by_name("sentences").to_python()
    with (tmp_path / "s.csv").open(encoding="utf-8", newline="") as fh:
        table = list(csv.reader(io.StringIO(fh.read())))
    assert sheet[0] == table[0]
    column = table[0].index("a.txt:bleu")
    # XlsxWriter writes a number with 16 significant digits (Excel shows 15): equal to that precision.
    theirs = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(a, ref)]
    assert [float(row[column]) for row in table[1:]] == theirs
    assert [row[column] for row in sheet[1:]] == pytest.approx(theirs, rel=1e-15, abs=1e-13)
    report = CalamineWorkbook.from_path(str(tmp_path / "r.xlsx"))
    assert report.sheet_names == ["systems BLEU", "pairs BLEU", "systems chrF2", "pairs chrF2", "about"]
    code, out, err = cli(capsys, tmp_path / "ref.txt", "-i", tmp_path / "a.txt", tmp_path / "b.txt", "--all-pairs",
                         "-f", "json")
    pairs = report.get_sheet_by_name("pairs BLEU").to_python()
    assert pairs[1][pairs[0].index("p_ar")] == json.loads(out)["pairs"][0]["p_ar"]


# What msgfmt (GNU gettext 0.21) says of each catalogue, run by hand: ok, or its error. polib reads every one of them
# (the bad ones wrongly: msgstr[0] as an empty translation, \q kept as it is).
MSGFMT_CASES = [
    ('msgid "Save"\nmsgstr[0] "Speichern"\n', "missing 'msgid_plural' section", "line 2: msgstr[0] in an entry without "
                                                                                 "msgid_plural"),
    ('msgid "Save"\nmsgstr "Spe\\qichern"\n', "invalid control sequence", r"line 2: \q is no escape of a C string"),
    ('msgid "Save"\nmsgstr "Spe\\\'ichern"\n', "invalid control sequence", r"line 2: \' is no escape of a C string"),
    ('msgid "Save"\nmsgstr ""\n"Spe\\u00e9"\n', "invalid control sequence", r"line 3: \u is no escape of a C string"),
    ('msgid "Save"\nmsgstr "Spe\\\\qichern \\x41\\101\\t\\"\\a\\v"\n', None, None),  # \\ then q; hex, octal, C's own
    ('msgid "File"\nmsgid_plural "Files"\nmsgstr[0] "Datei"\nmsgstr[1] "Dateien"\n', None, None),
]


@pytest.mark.parametrize(("entry", "msgfmt_says", "said"), MSGFMT_CASES)
def test_what_msgfmt_refuses_is_refused_naming_the_line(tmp_path, capsys, entry, msgfmt_says, said):
    (tmp_path / "ref.po").write_text('msgid "Save"\nmsgstr "Sichern"\n\nmsgid "File"\nmsgid_plural "Files"\n'
                                     'msgstr[0] "Datei"\nmsgstr[1] "Dateien"\n', encoding="utf-8")
    (tmp_path / "sys.po").write_text(entry, encoding="utf-8")
    code, _out, err = cli(capsys, tmp_path / "ref.po", "-i", tmp_path / "sys.po", "--scores-partial")
    assert "Traceback" not in err
    if said is None:
        assert "msgfmt refuses" not in err
    else:
        assert code == 2 and f"{tmp_path / 'sys.po'}: {said}" in err and f"({msgfmt_says})" in err


@pytest.mark.parametrize(("entry", "msgfmt_says", "said"), MSGFMT_CASES)
def test_msgfmt_itself_says_what_the_cases_say(tmp_path, entry, msgfmt_says, said):
    import shutil
    import subprocess

    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("msgfmt (GNU gettext) is not installed: its verdicts are written beside the cases")
    (tmp_path / "sys.po").write_text(entry, encoding="utf-8")
    done = subprocess.run([msgfmt, "-o", "/dev/null", str(tmp_path / "sys.po")], capture_output=True, text=True)
    assert (done.returncode == 0) == (msgfmt_says is None)
    assert msgfmt_says is None or msgfmt_says in done.stderr
