"""Readers keep the literal text (issue 57, items 1–6): a ``.txt`` is text, a TSV field is what lies between its
tabs, a segment holding line breaks is tokenized as sacreBLEU tokenizes it, a PO string is closed or refused, a
workbook without roles says which are missing, and its numbers are read as the cells show them.

Oracles: sacreBLEU on the file's literal text, Python's csv module where a field is in CSV quoting, msgfmt's rule
for an unterminated string, the cells as openpyxl-free spreadsheets show them.
"""

from __future__ import annotations

import csv
import json
import re

import pytest
import sacrebleu

from bleu_gui.core import InputError
from bleu_gui.core.inputs.annotations import read_annotation_file
from bleu_gui.core.inputs.run_inputs import read_run_inputs

from .conftest import cli, corpus_of, data_set

# -- 1. a .txt is text; JSONL is sniffed only from a whole JSON object ----------------------------------------------

@pytest.mark.parametrize("first", ["{count} files deleted", "{0} of {1}", '{"unclosed": ', "{} empty braces {}"])
@pytest.mark.parametrize("name", ["strings.txt", "strings"])
def test_a_text_file_whose_first_line_looks_like_braces_is_text(tmp_path, capsys, first, name):
    ref, hyp = tmp_path / f"ref-{name}", tmp_path / f"hyp-{name}"
    ref.write_text(f"{first}\nthe cat sat on the mat\n", encoding="utf-8")
    hyp.write_text(f"{first}\nthe cat sat on a mat\n", encoding="utf-8")
    code, out, err = cli(capsys, ref, "-i", hyp, "-b")
    assert code == 0, err
    oracle = sacrebleu.corpus_bleu([first, "the cat sat on a mat"], [[first, "the cat sat on the mat"]])
    assert float(out) == pytest.approx(round(oracle.score, 2))


def test_a_first_line_that_is_a_whole_json_object_is_jsonl_and_its_refusal_names_the_format_flag(tmp_path, capsys):
    bad = tmp_path / "rows"
    bad.write_text('{"hypothesis": "a b"}\n{"hypothesis": oops}\n', encoding="utf-8")
    hyp = tmp_path / "hyp"
    hyp.write_text("a b\na c\n", encoding="utf-8")
    code, _, err = cli(capsys, bad, "-i", hyp)
    assert code == 2
    assert "rows: line 2" in err and "--input-format text" in err and "jsonl" in err
    # The same file, read as text when asked: two segments, no refusal.
    code, _, err = cli(capsys, bad, "-i", hyp, "--input-format", "text", "-b")
    assert code == 0, err


def test_a_format_given_is_not_second_guessed_in_the_refusal(tmp_path, capsys):
    bad = tmp_path / "rows.jsonl"
    bad.write_text('{"hypothesis": oops}\n', encoding="utf-8")
    code, _, err = cli(capsys, bad, "--input-format", "jsonl")
    assert code == 2 and "--input-format" not in err


# -- 2. TSV fields are literal --------------------------------------------------------------------------------------

def _table(tmp_path, rows, name="t.tsv"):
    path = tmp_path / name
    path.write_text("source\ttarget\treference\n" + "".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_tsv_field_that_starts_with_a_quote_keeps_it(tmp_path, capsys):
    path = _table(tmp_path, [("„Hallo,“ sagte sie.", '"Hello," she said.', "Hello, she said.")])
    inputs = read_run_inputs([], [path])
    assert inputs.systems[0].lines == ['"Hello," she said.']
    code, out, err = cli(capsys, path, "-b")
    assert code == 0, err
    oracle = sacrebleu.corpus_bleu(['"Hello," she said.'], [["Hello, she said."]]).score
    assert float(out) == pytest.approx(round(oracle, 2)) and oracle < 50  # not 100: the quotes count


def test_an_unclosed_quote_swallows_no_rows(tmp_path):
    rows = [("a", '"Quoted start of a title', "x"), ("b", "second", "second"), ("c", "third", "third")]
    inputs = read_run_inputs([], [_table(tmp_path, rows)])
    assert inputs.systems[0].lines == ['"Quoted start of a title', "second", "third"]
    assert inputs.context.source is not None and inputs.context.source.lines == ["a", "b", "c"]


def test_fields_in_csv_quoting_read_as_the_csv_module_reads_them_and_said(tmp_path):
    rows = [("s", '"a ""serious"" proposal"', '"""Quoted"" whole"'), ("t", '"x"', '"y" z')]
    inputs = read_run_inputs([], [_table(tmp_path, rows)])
    assert inputs.systems[0].lines == ['a "serious" proposal', '"x"']  # "x" is no writer's quoting: literal
    assert inputs.references[0].lines == ['"Quoted" whole', '"y" z']
    assert any("2 field(s) in CSV quoting" in n for n in inputs.context.notes + inputs.systems[0].notes)


def test_a_quoted_field_holding_a_tab_is_read_csv_quoted_with_a_note(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text('source\ttarget\treference\ns\t"a\tb"\tab\nt\tc\tc\n', encoding="utf-8")
    inputs = read_run_inputs([], [path])
    assert inputs.systems[0].lines == ["a\tb", "c"]
    notes = inputs.context.notes + inputs.systems[0].notes
    assert any("read CSV-quoted: line 2 has 4 fields" in n for n in notes), notes


def test_a_ragged_tsv_is_still_refused_naming_the_line(tmp_path):
    path = tmp_path / "t.tsv"
    path.write_text('source\ttarget\treference\ns\ta\tb\nt\tc\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"t.tsv: line 3: 2 fields, the header has 3"):
        read_run_inputs([], [path])


@pytest.mark.parametrize("name", ["mqm_ted_ende.head588lines.tsv", "mqm_newstest2020_ende.source-errors.tsv"])
def test_googles_mqm_files_read_as_the_data_sets_readme_says(name):
    """The data set's README: the newstest2020 file is CSV-quoted inside a TSV (542 lines); read per field, every
    field equals the csv module's reading of it on both real files."""
    path = data_set("formats") / "tsv-mqm-wmt" / name
    from bleu_gui.core.inputs.text_files import decode_file
    from bleu_gui.core.inputs.tsv import read_tsv

    ours = read_tsv(path, decode_file(path, path.read_bytes(), "utf-8", False).lines)
    with path.open(encoding="utf-8", newline="") as fh:
        oracle = [row for row in csv.reader(fh, delimiter="\t") if row]
    assert [fields for _, fields in ours.rows] == oracle


def test_annotation_tsv_fields_are_literal_too(tmp_path):
    path = tmp_path / "ann.tsv"
    path.write_text("system\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
                    'A\t1\tr1\t"Hi," she said\t"<v>Hallo</v>," sagte sie\tAccuracy/Mistranslation\tMajor\n',
                    encoding="utf-8")
    _, rows, note = read_annotation_file(path)
    assert rows[0].target == '"Hallo," sagte sie' and rows[0].source == '"Hi," she said'
    assert rows[0].rating.target_spans == [(1, 6)] and note == ""


def test_the_mqm_sources_csv_quoted_fields_keep_their_spans():
    path = data_set("formats") / "tsv-mqm-wmt" / "mqm_newstest2020_ende.source-errors.tsv"
    _, rows, note = read_annotation_file(path)
    assert "727 field(s) in CSV quoting" in note
    quoted = [r for r in rows if "serious" in r.source]
    assert quoted and all('""' not in r.source and re.search(r'"serious"', r.source) for r in quoted)


# -- 3. a segment holding line breaks is tokenized as sacreBLEU tokenizes it ------------------------------------

def _po(path, pairs):
    entries = "".join(f'\nmsgid "{i}"\nmsgstr "{s}"\n' for i, s in pairs)
    path.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' + entries, encoding="utf-8")
    return path


def test_a_dash_before_a_line_break_is_scored_and_explained_as_sacrebleu_tokenizes_it(tmp_path, capsys):
    hyp_text, ref_text = "Optionen:\n--------\n-h Hilfe anzeigen", "Optionen:\n--------\n-h zeigt die Hilfe an"
    ref = _po(tmp_path / "ref.po", [("Options", "Optionen:\\n--------\\n-h zeigt die Hilfe an"), ("b", "Datei")])
    hyp = _po(tmp_path / "hyp.po", [("Options", "Optionen:\\n--------\\n-h Hilfe anzeigen"), ("b", "Datei")])
    code, out, err = cli(capsys, ref, "-i", hyp, "-f", "json")
    assert code == 0, err
    oracle = sacrebleu.corpus_bleu([hyp_text, "Datei"], [[ref_text, "Datei"]])
    assert json.loads(out)["score"] == pytest.approx(oracle.score, abs=1e-9)
    code, out, err = cli(capsys, ref, "-i", hyp, "--explain", "1", "-f", "json")
    assert code == 0, err
    explained = json.loads(out)[0]
    tokens = sacrebleu.BLEU().tokenizer(hyp_text).split()
    assert "--------h" in tokens  # the token sacreBLEU counts, spanning the line break
    precision = next(s for s in explained["sections"] if s["title"] == "Precision per order")["lines"][0]
    assert f"of {len(tokens)} matched" in precision


# -- 4. PO: a string not closed is refused; a duplicate names its entries' own lines --------------------------------

_HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'


@pytest.mark.parametrize("body,line", [
    ('msgid "Save"\nmsgstr "Speichern', 6),                    # end of file inside the string
    ('msgid "Save"\nmsgstr "Speichern\n\nmsgid "Open"\nmsgstr "Öffnen"\n', 6),
    ('msgid "Save"\nmsgstr ""\n"Spei\n"chern"\n', 7),          # a continuation line
    ('msgid "Save"\nmsgstr "Speichern\\"\n', 6),               # the last quote is escaped: still open
    ('msgid "Save\nmsgstr "Speichern"\n', 5),
])
def test_a_string_not_closed_on_its_line_is_refused_naming_it_as_msgfmt_does(tmp_path, body, line):
    po = tmp_path / "sys.po"
    po.write_text(_HEADER + body, encoding="utf-8")
    with pytest.raises(InputError, match=rf"sys.po: line {line}: a string not closed on its line"):
        read_run_inputs([], [po])


def test_closed_strings_with_escapes_and_continuations_are_read(tmp_path):
    po = tmp_path / "sys.po"
    po.write_text(_HEADER + 'msgid "Say"\nmsgstr ""\n"Er sagte \\"hallo\\" "\n"und ging.\\\\"  \n', encoding="utf-8")
    assert corpus_of(po).translations[0].lines == ['Er sagte "hallo" und ging.\\']


@pytest.mark.parametrize("header", ['msgid ""\nmsgstr ""\n\n', _HEADER])
def test_a_duplicate_entry_is_reported_at_the_entries_own_lines(tmp_path, header):
    po = tmp_path / "dup.po"
    po.write_text(header + 'msgid "Save"\nmsgstr "Speichern"\n\nmsgid "Open"\nmsgstr "Öffnen"\n\n'
                  'msgid "Save"\nmsgstr "Sichern"\n', encoding="utf-8")
    first = header.count("\n") + 1
    with pytest.raises(InputError, match=rf'dup.po: line {first + 6}: the entry "Save" is given twice \(first at line '
                                         rf'{first}\)'):
        read_run_inputs([], [po])


# -- 5. a wide workbook without roles says which are missing; --refs NAME makes the other columns the systems -------

def _workbook(path, rows):
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet()
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            sheet.write(r, c, value)
    book.close()
    return path


ENGINES = [["source", "DeepL", "Google", "note", "words"],
           ["Hello world", "Hallo Welt", "Hallo, Welt!", "greeting", 2],
           ["Good morning to you", "Guten Morgen dir", "Guten Morgen an Sie", "", 4],
           ["The cat sat on the mat", "Die Katze saß auf der Matte", "Die Katze sass auf der Matte", "", 6]]


def test_a_wide_sheet_without_roles_names_the_missing_roles_and_the_flags_that_read_it(tmp_path, capsys):
    book = _workbook(tmp_path / "eng.xlsx", ENGINES)
    code, _, err = cli(capsys, book)
    assert code == 2 and "<stdin>" not in err and "empty file" not in err
    assert "no column is named as the candidate nor the reference" in err
    assert "--refs DeepL" in err and "--column candidate=DeepL,Google" in err
    assert "note" not in err.split("without a role:")[1]  # notes and numbers are no engines


def test_refs_naming_a_column_makes_the_other_text_columns_the_systems(tmp_path, capsys):
    book = _workbook(tmp_path / "eng.xlsx", ENGINES)
    code, out, err = cli(capsys, book, "--refs", "DeepL", "-f", "json")
    assert code == 0, err
    result = json.loads(out)
    google = [row[2] for row in ENGINES[1:]]
    deepl = [row[1] for row in ENGINES[1:]]
    assert result["system"] == "Google"
    assert result["score"] == pytest.approx(sacrebleu.corpus_bleu(google, [deepl]).score, abs=1e-9)
    assert "DeepL named as the reference" in err and "(Google) are the systems" in err


def test_a_sheet_with_a_reference_column_asks_only_for_the_candidates(tmp_path, capsys):
    rows = [["source", "reference", "DeepL", "Google"], *[[r[0], r[1] + " x", r[1], r[2]] for r in ENGINES[1:]]]
    book = _workbook(tmp_path / "eng.xlsx", rows)
    code, _, err = cli(capsys, book)
    assert code == 2 and "named as the candidate (text" in err and "--column candidate=DeepL,Google" in err
    code, out, err = cli(capsys, book, "--column", "candidate=DeepL,Google", "-b")
    assert code == 0, err
    code, out, err = cli(capsys, book, "--refs", "reference", "-b")
    assert code == 0 and len(out.split()) == 2, err


def test_the_window_says_the_same_in_its_words(qtbot, window, tmp_path):
    """File ▸ Open with the workbook in System outputs (the dialog moves a file holding systems to References)."""
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.gui.state import OpenChoice

    from .test_window_inputs import LEFT_OVER, open_choice

    book = str(_workbook(tmp_path / "eng.xlsx", ENGINES))
    message = open_choice(qtbot, window, OpenChoice(InputRequest(systems=(), references=(book,))))
    assert isinstance(message, str)
    assert "References to use DeepL (File ▸ Open)" in message, message
    assert "Columns candidate=DeepL,Google (File ▸ Open)" in message, message
    assert "no system output given" not in message and not LEFT_OVER.search(message)
    run = open_choice(qtbot, window, OpenChoice(InputRequest(systems=(), references=(book,), refs_wanted=("DeepL",))))
    assert not isinstance(run, str), run
    assert [s.name for s in run.systems] == ["Google"]


# -- 6. workbook numbers as the cells show them -----------------------------------------------------------------

SHOWN = [  # (value written, the cell's number format or None for General, what the spreadsheet shows: worked by hand)
    (0.30000000000000004, None, "0.3"),   # =0.1+0.2
    (1 / 3, None, "0.333333333333333"),  # General: 15 significant digits
    (3.0, None, "3"),
    (0.25, "0%", "25%"),
    (0.125, "0.00%", "12.50%"),
    (1.5, "0.00", "1.50"),
    (1234567.25, "#,##0.0", "1,234,567.3"),  # half away from zero, as spreadsheets round
    (-1234.5, "#,##0 ;(#,##0)", "(1,235)"),
    (12345.678, "0.00E+00", "1.23E+04"),
    (1.5, '0.0" km"', "1.5 km"),
    (0.5, "#.00", ".50"),
]


def test_workbook_numbers_read_as_their_cells_show_them(tmp_path):
    import xlsxwriter

    path = tmp_path / "n.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Zahlen")
    sheet.write_row(0, 0, ["source", "target", "shown"])
    for r, (value, number_format, _) in enumerate(SHOWN, start=1):
        style = book.add_format({"num_format": number_format}) if number_format else None
        sheet.write(r, 0, f"s{r}")
        sheet.write(r, 1, f"t{r}")
        if r == 1:
            sheet.write_formula(r, 2, "=0.1+0.2", style, value)
        else:
            sheet.write_number(r, 2, value, style)
    book.close()
    corpus = corpus_of(path)
    assert corpus.context.meta["shown"] == tuple(shown for _, _, shown in SHOWN)
