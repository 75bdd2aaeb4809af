"""The bleu-score command: output formats equal to sacreBLEU's, and a clear message for every bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_gui.core import BleuConfig
from bleu_gui.demo import demo_folder

from .conftest import cli, data_set
from .oracles import sacre_corpus, sacre_metric

ROOT = Path(__file__).resolve().parents[1]
DEMO = demo_folder("en")


def lines(path):
    return path.read_text(encoding="utf-8").splitlines()



def test_text_line_is_sacrebleus(capsys):
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt")
    metric = sacre_metric(BleuConfig())
    theirs = metric.corpus_score(lines(DEMO / "system-a.txt"), [lines(DEMO / "ref1.txt")])
    assert code == 0
    assert out.strip() == theirs.format(width=2, signature=metric.get_signature().format())


def test_json_fields_unrounded(capsys):
    code, out, _ = cli(capsys, DEMO / "ref1.txt", DEMO / "ref2.txt", "-i", DEMO / "system-a.txt",
                       DEMO / "system-b.txt", "-f", "json")
    data = json.loads(out)
    assert code == 0 and isinstance(data, list) and len(data) == 2
    refs = [lines(DEMO / "ref1.txt"), lines(DEMO / "ref2.txt")]
    for obj, name in zip(data, ["system-a.txt", "system-b.txt"]):
        theirs = sacre_corpus(lines(DEMO / name), refs, BleuConfig())
        assert obj["system"].endswith(name)
        assert set(obj) >= {"system", "score", "precisions", "counts", "totals", "bp", "ratio", "sys_len",
                            "ref_len", "signature", "variant"}
        assert obj["score"] == pytest.approx(theirs.score, abs=1e-9)
        assert obj["counts"] == theirs.counts and obj["totals"] == theirs.totals
        assert obj["variant"] == "sacrebleu"


def test_multi_bleu_format(capsys):
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-b.txt", "--format", "multi-bleu")
    theirs = sacre_corpus(lines(DEMO / "system-b.txt"), [lines(DEMO / "ref1.txt")], BleuConfig())
    p = "/".join(f"{x:.1f}" for x in theirs.precisions)
    assert out.strip() == (f"BLEU = {theirs.score:.2f}, {p} (BP={theirs.bp:.3f}, ratio={theirs.ratio:.3f}, "
                           f"hyp_len={theirs.sys_len}, ref_len={theirs.ref_len})")


def test_sentence_level_and_score_only(capsys):
    from .oracles import sacre_sentences

    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-b.txt", "-sl", "-b")
    theirs = sacre_sentences(lines(DEMO / "system-b.txt"), [lines(DEMO / "ref1.txt")], BleuConfig())
    assert out.split() == [f"{s.score:.2f}" for s in theirs]
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-b.txt", "-sl", "-f", "json")
    sentences = json.loads(out)["sentences"]
    assert [s["score"] for s in sentences] == pytest.approx([s.score for s in theirs], abs=1e-9)
    assert "eff:yes" in sentences[0]["signature"]


def test_nltk_and_d2l_variants_say_what_they_are(capsys):
    code, out, err = cli(capsys, DEMO / "ref1.txt", DEMO / "ref2.txt", "-i", DEMO / "system-a.txt",
                         "--variant", "d2l", "-f", "json")
    obj = json.loads(out)
    assert obj["variant"] == "d2l" and obj["signature"].startswith("variant:d2l")
    assert "mean of sentence scores" in err and "first reference" in err
    code, out, err = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", "--variant", "nltk",
                         "--nltk-smoothing", "4", "--weights", "0.5", "0.5")
    assert code == 0 and "variant:nltk" in out and "smooth:method4" in out and "weights:0.5,0.5" in out


def test_reference_folder(tmp_path, capsys):
    folder = tmp_path / "refs"
    folder.mkdir()
    (folder / "b.txt").write_text((DEMO / "ref2.txt").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "a.txt").write_text((DEMO / "ref1.txt").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = cli(capsys, folder, "-i", DEMO / "system-a.txt", "-b")
    refs = [lines(DEMO / "ref1.txt"), lines(DEMO / "ref2.txt")]
    assert out.strip() == f"{sacre_corpus(lines(DEMO / 'system-a.txt'), refs, BleuConfig()).score:.2f}"


# --- bad input: one line naming the file, exit status 2, no traceback ------------------------------------------

def write(path, data: bytes):
    path.write_bytes(data)
    return path


@pytest.fixture
def good(tmp_path):
    return write(tmp_path / "good.txt", b"a b c d e\nf g h i j\n")


BAD_CASES = {
    "missing file": (lambda d: d / "nope.txt", r"nope.txt: no such file"),
    "empty file": (lambda d: write(d / "empty.txt", b""), r"empty.txt: empty file \(no segments\)"),
    "bom only": (lambda d: write(d / "bom.txt", b"\xef\xbb\xbf"), r"bom.txt: empty file"),
    "undecodable": (lambda d: write(d / "latin.txt", b"ok\ncaf\xe9 x\n"),
                    r"latin.txt: line 2, byte offset 6: cannot decode byte 0xe9 as utf-8"),
    "binary": (lambda d: write(d / "bin.txt", b"ab\ncd\x00\x01\n"),
               r"bin.txt: binary, not text: a NUL byte at line 2, byte offset 5"),
    "utf-16 with a bom": (lambda d: write(d / "wide.txt", "a b\n".encode("utf-16")),
                          r"wide.txt: starts with a UTF-16 byte order mark: the file is UTF-16 text, not utf-8; "
                          r"read it with -e utf-16 \(or -e auto\)"),
    "line counts": (lambda d: write(d / "short.txt", b"only one line\n"),
                    r"line counts differ: .*short.txt has 1, .*good.txt has 2"),
}


@pytest.mark.parametrize("case", sorted(BAD_CASES))
def test_bad_hypothesis_input(case, tmp_path, good, capsys):
    make, pattern = BAD_CASES[case]
    code, out, err = cli(capsys, good, "-i", make(tmp_path))
    assert code == 2 and out == ""
    assert err.startswith("bleu-score: error: ") and err.count("\n") == 1
    import re
    assert re.search(pattern, err), err


def test_empty_reference_folder(tmp_path, good, capsys):
    (tmp_path / "refs").mkdir()
    code, _, err = cli(capsys, tmp_path / "refs", "-i", good)
    assert code == 2 and "refs: folder has no reference files" in err


def test_unknown_encoding_and_bad_option_values(good, capsys):
    code, _, err = cli(capsys, good, "-i", good, "-e", "klingon", "--allow-identical-refs")
    assert code == 2 and "unknown encoding 'klingon'" in err
    code, _, err = cli(capsys, good, "-i", good, "--weights", "0.5", "0.5", "--allow-identical-refs")
    assert code == 2 and "--weights applies to the nltk variant only" in err
    code, _, err = cli(capsys, good, "-i", good, "--max-ngram-order", "12", "--allow-identical-refs")
    assert code == 2 and "max n-gram order must be 1..9" in err


def test_legacy_encodings(tmp_path, capsys):
    ko = "빛이 쐬는 사람은 완벽한 어둠에서 잠든다\n오늘 날씨는 맑다\n"
    ref = write(tmp_path / "ref.txt", ko.encode("utf-8"))
    hyp = write(tmp_path / "hyp.txt", ko.encode("cp949"))
    code, _, err = cli(capsys, ref, "-i", hyp)
    assert code == 2 and "cannot decode byte" in err and "-e auto" in err
    # A UTF-8 reference and a cp949 system do not share an encoding: -e auto stops and names both guesses.
    code, out, err = cli(capsys, ref, "-i", hyp, "-e", "auto", "-b")
    assert code == 2 and out == ""
    assert "do not share one encoding" in err and "ref.txt: utf-8" in err and "hyp.txt: " in err
    both = write(tmp_path / "ref949.txt", ko.encode("cp949"))
    code, out, _ = cli(capsys, both, "-i", hyp, "-e", "cp949", "-b", "--allow-identical-refs")
    assert code == 0 and out.strip() == "100.00"
    code, out, err = cli(capsys, both, "-i", hyp, "-e", "auto", "-b", "--allow-identical-refs")
    assert code == 0 and out.strip() == "100.00" and "detected for all 2 files together" in err


def test_auto_encoding_is_one_for_the_whole_set(tmp_path, capsys):
    """Latin-1 files that a per-file guess decoded with two different code pages (BLEU 0.00)."""
    ref = write(tmp_path / "ref.txt", "façade\n".encode("latin-1"))
    hyp = write(tmp_path / "hyp.txt", "le être façade été\n".encode("latin-1"))
    expected = sacre_corpus(["le être façade été"], [["façade"]], BleuConfig()).score
    code, out, err = cli(capsys, ref, "-i", hyp, "-e", "auto", "-b", "-w", "6")
    assert code == 0 and float(out) == pytest.approx(expected, abs=1e-6) and round(expected, 2) == 15.97
    assert err.count("detected for all 2 files together") == 1


def test_line_ends_bom_and_final_newline(tmp_path, capsys):
    ref = write(tmp_path / "ref.txt", b"a b c d e\nf g h i j\n")
    hyp = write(tmp_path / "hyp.txt", b"\xef\xbb\xbfa b c d e\r\nf g h i j")
    code, out, _ = cli(capsys, ref, "-i", hyp, "-b", "--allow-identical-refs")
    assert code == 0 and out.strip() == "100.00"
    mac = write(tmp_path / "mac.txt", b"a b c d e\rf g h i j\r")
    code, out, _ = cli(capsys, ref, "-i", mac, "-b", "--allow-identical-refs")
    assert code == 0 and out.strip() == "100.00"


def test_input_files_are_not_modified(tmp_path, capsys):
    ref = write(tmp_path / "ref.txt", b"\xef\xbb\xbfa b c\r\nd e f\r\n")
    before = ref.read_bytes()
    cli(capsys, ref, "-i", ref, "--allow-identical-refs")
    assert ref.read_bytes() == before


def test_no_traceback_from_the_installed_command(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "bleu_gui.cli", str(tmp_path / "missing.txt"), "-i",
                           str(tmp_path / "also-missing.txt")], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "missing.txt: no such file" in proc.stderr


def test_chunked_reading_equals_whole_text(tmp_path, monkeypatch):
    """Files are decoded in chunks; chunk edges (inside CRLF, inside a multi-byte character) change nothing."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from bleu_gui.core.inputs import text_files

    pieces = st.lists(st.sampled_from(["a", "é", "빛", "\r", "\n", "\r\n", " ", "\u2028", "x\ufeff"]), max_size=40)

    @settings(max_examples=100, deadline=None)
    @given(body=pieces.map("".join), chunk=st.integers(1, 7), bom=st.booleans(),
           codec=st.sampled_from(["utf-8", "utf-16", "cp949"]))
    def check(body, chunk, bom, codec):
        if codec == "cp949":
            body = body.replace("é", "e").replace("\u2028", " ").replace("\ufeff", "")
        text = ("\ufeff" if bom and codec == "utf-8" else "") + body
        data = text.encode(codec)
        path = tmp_path / "f.txt"
        path.write_bytes(data)
        whole = (text[1:] if text.startswith("\ufeff") else text).replace("\r\n", "\n").replace("\r", "\n")
        expected = (whole[:-1] if whole.endswith("\n") else whole).split("\n")
        with monkeypatch.context() as m:
            m.setattr(text_files, "_READ_CHUNK", chunk)
            if not body:
                return
            assert text_files.read_segments(path, codec).lines == expected

    check()


def test_paired_tests_json_and_text(capsys):
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    refs = [lines(DEMO / "ref1.txt"), lines(DEMO / "ref2.txt")]
    systems = [lines(DEMO / "system-a.txt"), lines(DEMO / "system-b.txt")]
    for flag, test_type, n in (("--paired-bs", "bs", 1000), ("--paired-ar", "ar", 10000)):
        code, out, _ = cli(capsys, DEMO / "ref1.txt", DEMO / "ref2.txt", "-i", DEMO / "system-a.txt",
                           DEMO / "system-b.txt", flag, "-f", "json")
        ours = json.loads(out)
        _, theirs = PairedTest([("a", systems[0]), ("b", systems[1])], {"BLEU": BLEU(references=refs)},
                               references=None, test_type=test_type, n_samples=n)()
        assert code == 0 and [o["system"][-12:] for o in ours] == ["system-a.txt", "system-b.txt"]
        for o, t in zip(ours, theirs["BLEU"]):
            assert o["score"] == pytest.approx(t.score, abs=1e-12) and o["p_value"] == t.p_value
            assert (o["mean"] is None) == (t.mean is None)
            if t.mean is not None:
                assert o["mean"] == pytest.approx(t.mean, abs=1e-9) and o["ci"] == pytest.approx(t.ci, abs=1e-9)
            assert f"{test_type}:{n}|seed:12345" in o["signature"] and o["counts"]
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", DEMO / "system-b.txt", "--paired-bs")
    assert "Baseline: " in out and "(p = " in out and "bs:1000|seed:12345" in out


def test_confidence_line(capsys):
    from sacrebleu.metrics import BLEU

    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", "--confidence")
    theirs = BLEU().corpus_score(lines(DEMO / "system-a.txt"), [lines(DEMO / "ref1.txt")], n_bootstrap=1000)
    assert f"= {theirs.score:.2f} (μ = {theirs._mean:.2f} ± {theirs._ci:.2f}) " in out
    assert "|bs:1000|seed:12345|" in out


def test_paired_test_needs_two_systems(capsys):
    code, _, err = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", "--paired-bs")
    assert code == 2 and "paired tests need a baseline and at least one more system" in err
    code, _, err = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", DEMO / "system-b.txt", "--paired-ar",
                       "--variant", "nltk")
    assert code == 2 and "need the sacrebleu variant" in err


def test_one_name_per_system_in_every_output(tmp_path, capsys):
    """exp1/hyp.txt and exp2/hyp.txt: stdout, JSON, the sentence CSV/JSON and the report all use the same
    unique names (the shortest path suffix that tells them apart)."""
    for folder, source in (("exp1", "system-a.txt"), ("exp2", "system-b.txt")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "hyp.txt").write_bytes((DEMO / source).read_bytes())
    hyps = [tmp_path / "exp1" / "hyp.txt", tmp_path / "exp2" / "hyp.txt"]
    names = ["exp1/hyp.txt", "exp2/hyp.txt"]
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", *hyps)
    assert code == 0 and [line.split(": ")[0] for line in out.splitlines()] == names
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", *hyps, "--format", "json")
    assert [obj["system"] for obj in json.loads(out)] == names
    csv_out, json_out, report = tmp_path / "s.csv", tmp_path / "s.json", tmp_path / "r.html"
    assert cli(capsys, DEMO / "ref1.txt", "-i", *hyps, "--export-sentences", csv_out, "--report", report)[0] == 0
    assert cli(capsys, DEMO / "ref1.txt", "-i", *hyps, "--export-sentences", json_out)[0] == 0
    header = csv_out.read_text(encoding="utf-8").splitlines()[0].split(",")
    assert [h for h in header if h.endswith(":bleu")] == [f"{n}:bleu" for n in names]
    assert json.loads(json_out.read_text(encoding="utf-8"))["systems"] == names
    html = report.read_text(encoding="utf-8")
    assert "<td>baseline: exp1/hyp.txt</td>" in html and "<td>exp2/hyp.txt</td>" in html
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", *hyps, "--paired-bs", "--paired-bs-n", "50")
    assert "Baseline: exp1/hyp.txt" in out and "exp2/hyp.txt" in out


def test_display_names():
    from bleu_gui.core.inputs.names import display_names

    assert display_names(["/a/x/hyp.txt", "/a/y/hyp.txt", "/b/other.txt"]) == ["x/hyp.txt", "y/hyp.txt", "other.txt"]
    assert display_names(["/r/a/x/h.txt", "/r/b/x/h.txt"]) == ["a/x/h.txt", "b/x/h.txt"]
    assert display_names(["/only/one.txt"]) == ["one.txt"]


def test_empty_reference_lines_read_as_the_sacrebleu_command_does(tmp_path, capsys):
    hyp, ref1, ref2 = tmp_path / "hyp.txt", tmp_path / "ref1.txt", tmp_path / "ref2.txt"
    hyp.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    ref1.write_text("the cat sat on a mat\nhello world\n", encoding="utf-8")
    ref2.write_text("\nhello world out there today\n", encoding="utf-8")
    sacre = subprocess.run([str(Path(sys.executable).with_name("sacrebleu")), str(ref1), str(ref2), "-i", str(hyp),
                            "-b", "-w", "6"], capture_output=True, text=True, check=True).stdout.strip()
    code, out, err = cli(capsys, ref1, ref2, "-i", hyp, "-b", "-w", "6")
    assert code == 0 and out.strip() == sacre
    assert "ref2.txt: 1 empty line (line 1) read as an empty reference" in err
    code, out, err = cli(capsys, ref1, ref2, "-i", hyp, "--empty-refs", "missing")
    assert "nrefs:var|emptyrefs:missing|" in out and "read as a missing reference" in err
    missing = sacre_corpus(lines(hyp), [lines(ref1), lines(ref2)], BleuConfig(empty_refs="missing"))
    assert f"= {missing.score:.2f} " in out


def test_bom_and_lone_cr_are_reported_with_the_line(tmp_path, capsys):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_bytes(b"\xef\xbb\xbfa b\nc d\re f\n")
    ref.write_bytes(b"a b\nc d\ne g\n")
    code, _, err = cli(capsys, ref, "-i", hyp)
    assert code == 0
    assert f"{hyp}: a byte order mark (BOM) at the start was removed" in err
    assert f"{hyp}: 1 lone carriage return(s) (CR without LF) ended a line, the first at the end of line 2" in err


def test_a_reference_folder_never_swallows_the_system_or_the_source(tmp_path, capsys):
    mixdir = tmp_path / "mixdir"
    mixdir.mkdir()
    texts = {"ref1.txt": "the cat sat on the mat\nhello world\n", "src.txt": "die Katze\nhallo Welt\n",
             "sys1.txt": "the cat sat on a mat\nhello there world\n", "other.txt": "a cat sat on the mat\nhello\n"}
    for name, text in texts.items():
        (mixdir / name).write_text(text, encoding="utf-8")
    (mixdir / "ref1.txt").rename(mixdir / "de.txt")  # no file named as a reference: every other file is one
    code, out, err = cli(capsys, mixdir, "-i", mixdir / "sys1.txt", "-w", "6")
    assert code == 0 and "nrefs:2|" in out  # de.txt and other.txt: never sys1.txt itself, never src.txt
    expected = sacre_corpus(lines(mixdir / "sys1.txt"), [lines(mixdir / "de.txt"), lines(mixdir / "other.txt")],
                            BleuConfig())
    assert f"= {expected.score:.6f} " in out
    assert "reference taken from the folder" in err and "not taken: src.txt (a source file), sys1.txt (a system)" in err
    code, _, err = cli(capsys, mixdir / "sys1.txt", "-i", mixdir / "sys1.txt")
    assert code == 2 and "given as a system and as a reference" in err
    copy = tmp_path / "copy.txt"
    copy.write_bytes((mixdir / "sys1.txt").read_bytes())
    code, _, err = cli(capsys, copy, "-i", mixdir / "sys1.txt")
    assert code == 2 and "copy.txt is identical to the system" in err and "sys1.txt" in err
    code, out, _ = cli(capsys, copy, "-i", mixdir / "sys1.txt", "--allow-identical-refs", "-b")
    assert code == 0 and out.strip() == "100.00"


def test_a_file_a_folder_gave_that_cannot_be_a_reference_says_where_it_came_from(tmp_path, capsys):
    """An error about a file a folder gave says the folder gave it, and what it gave, instead of leaving the
    user to wonder why that file was read at all."""
    folder = tmp_path / "testset"
    folder.mkdir()
    (folder / "de.txt").write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    (folder / "sys1.txt").write_text("the cat sat on a mat\nhello there world\n", encoding="utf-8")
    (folder / "notes.txt").write_text("three lines\nof notes\nabout the set\n", encoding="utf-8")
    (folder / "manifest.json").write_text('{\n  "sys1.txt": "A"\n}\n', encoding="utf-8")
    code, out, err = cli(capsys, folder, "-i", folder / "sys1.txt")
    assert code == 2 and out == "" and "Traceback" not in err
    assert "line counts differ" in err  # the problem itself comes first, as before
    assert (f" (the folder {folder} gave the references de.txt, notes.txt; not taken: manifest.json (documentation or "
            "metadata), sys1.txt (a system))") in err
    code, _, err = cli(capsys, folder / "de.txt", "-i", folder / "sys1.txt", "-b")
    assert code == 0 and "gave the references" not in err


def test_a_system_identical_to_the_baseline_is_labelled_never_starred(tmp_path, capsys):
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    twin = tmp_path / "twin.txt"
    twin.write_bytes((DEMO / "system-a.txt").read_bytes())
    systems = [DEMO / "system-a.txt", twin, DEMO / "system-b.txt"]
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", *systems, "--paired-bs", "--paired-bs-n", "100")
    named = [(p.name, lines(p)) for p in systems]
    _, theirs = PairedTest(named, {"BLEU": BLEU(references=[lines(DEMO / "ref1.txt")])}, references=None,
                           test_type="bs", n_samples=100)()
    p_twin = theirs["BLEU"][1].p_value
    assert p_twin <= 0.05  # sacreBLEU's number for a copy of the baseline: the smallest p there is
    assert code == 0 and f"(p = {p_twin:.4f})\n" not in out and f"(p = {p_twin:.4f})" in out
    assert f"(p = {p_twin:.4f}*)" not in out and "identical to baseline" in out
    assert "twin.txt: identical to the baseline, line for line" in out
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", *systems, "--paired-bs", "--paired-bs-n", "100",
                       "--format", "json")
    objs = json.loads(out)
    assert objs[1]["p_value"] == p_twin and objs[1]["identical_to_baseline"] is True
    assert "identical_to_baseline" not in objs[2]


@pytest.mark.parametrize("data, language, tokenizer", [("wmt22-en-ja", "Japanese", "ja-mecab"),
                                                      ("wmt22-en-zh-2ref", "Chinese", "zh"),
                                                      ("kor-sacrebleu-doc1-en-ko", "Korean", "ko-mecab")])
def test_cjk_references_with_13a_get_sacrebleus_advice(capsys, data, language, tokenizer):
    from .conftest import data_set

    folder = data_set(data)
    refs = sorted(folder.glob("ref*.txt"))
    system = sorted(p for p in folder.glob("*.txt") if not p.name.startswith(("ref", "src")))[0]
    code, _, err = cli(capsys, *refs, "-i", system)
    assert code == 0 and "advice: " in err and f"{language} script; sacreBLEU recommends -tok {tokenizer}" in err
    code, _, err = cli(capsys, *refs, "-i", system, "-tok", tokenizer)
    assert code == 0 and "advice" not in err


def test_no_advice_for_latin_script(capsys):
    code, _, err = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt")
    assert code == 0 and "advice" not in err


def test_a_misaligned_candidate_is_warned_about(tmp_path, capsys):
    from .conftest import data_set

    folder = data_set("sacrebleu-wmt17-en-de")
    hyp = lines(folder / "sys1.txt")
    broken = tmp_path / "sys1.txt"
    broken.write_text("\n".join(hyp[:1500] + [hyp[1500]] + hyp[1500:-1]) + "\n", encoding="utf-8")
    code, _, err = cli(capsys, folder / "ref1.txt", "-i", broken)
    assert code == 0 and "warning: sys1.txt looks misaligned from line 1502" in err
    code, _, err = cli(capsys, folder / "ref1.txt", "-i", folder / "sys1.txt")
    assert code == 0 and "misaligned" not in err


def test_labels_name_the_systems_everywhere(tmp_path, capsys):
    systems = [DEMO / "system-a.txt", DEMO / "system-b.txt"]
    out_json = tmp_path / "s.json"
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", *systems, "--labels", "baseline", "new model",
                       "--export-sentences", out_json)
    assert code == 0 and [line.split(": ")[0] for line in out.splitlines()] == ["baseline", "new model"]
    assert json.loads(out_json.read_text(encoding="utf-8"))["systems"] == ["baseline", "new model"]
    code, _, err = cli(capsys, DEMO / "ref1.txt", "-i", *systems, "--labels", "same", "same")
    assert code == 2 and "two systems would have the same label" in err
    code, _, err = cli(capsys, DEMO / "ref1.txt", "-i", *systems, "--labels", "one")
    assert code == 2 and "give one label per system: 1 labels for 2 systems" in err


def test_all_pairs_json_equals_sacrebleu_for_every_pair(capsys, tmp_path):
    from .test_pair_matrix import sacre_p_values

    refs = [lines(DEMO / "ref1.txt"), lines(DEMO / "ref2.txt")]
    names = ["system-a.txt", "system-b.txt"]
    # A third system: system-a with every other sentence taken from system-b.
    a, b = lines(DEMO / "system-a.txt"), lines(DEMO / "system-b.txt")
    mixed = tmp_path / "mixed_sys.txt"
    mixed.write_text("\n".join(x if i % 2 else y for i, (x, y) in enumerate(zip(a, b))) + "\n", encoding="utf-8")
    systems = [a, b, lines(mixed)]
    code, out, err = cli(capsys, DEMO / "ref1.txt", DEMO / "ref2.txt", "-i", DEMO / names[0], DEMO / names[1],
                         mixed, "--labels", "A", "B", "mix_1", "--all-pairs", "-f", "json", "--paired-ar-n", "2000")
    assert code == 0, err
    ours = json.loads(out)
    assert ours["alpha"] == 0.05 and ours["correction"] == "none" and ours["rank_test"] == "ar"
    assert sorted(ours["systems"]) == ["A", "B", "mix_1"] and set(ours["ranks"]) == {"A", "B", "mix_1"}
    scores = [ours["scores"][n] for n in ours["systems"]]
    assert scores == sorted(scores, reverse=True)
    index = {"A": 0, "B": 1, "mix_1": 2}
    cfg = BleuConfig()
    bs = {k: sacre_p_values(systems, refs, cfg, "bs", 1000, k) for k in range(3)}
    ar = {k: sacre_p_values(systems, refs, cfg, "ar", 2000, k) for k in range(3)}
    assert len(ours["pairs"]) == 3
    for pair in ours["pairs"]:
        i, j = index[pair["a"]], index[pair["b"]]
        assert pair["delta"] >= 0 and pair["delta"] == pytest.approx(ours["scores"][pair["a"]]
                                                                     - ours["scores"][pair["b"]])
        assert pair["p_bs"] == bs[i][j] == bs[j][i] and pair["p_ar"] == ar[i][j] == ar[j][i]
        assert pair["ci_low"] <= pair["delta"] <= pair["ci_high"]


def test_all_pairs_latex_escapes_names_and_rules_between_clusters(capsys):
    from .conftest import data_set

    folder = data_set("sacrebleu-wmt17-en-de")
    files = [folder / f"sys{i}.txt" for i in (11, 4, 1)]
    code, out, err = cli(capsys, folder / "ref1.txt", "-i", *files, "--labels", "top_1", "mid&2", "low%3",
                         "--all-pairs", "-f", "latex", "--paired-ar-n", "2000")
    assert code == 0, err
    assert r"top\_1" in out and r"mid\&2" in out and r"low\%3" in out
    code, js, _ = cli(capsys, folder / "ref1.txt", "-i", *files, "--labels", "top_1", "mid&2", "low%3",
                      "--all-pairs", "-f", "json", "--paired-ar-n", "2000")
    ranks = json.loads(js)["ranks"]
    table = out.split(r"\end{tabular}")[0]
    # One \midrule under the header, and one between each two clusters.
    assert table.count(r"\midrule") == 1 + len(set(ranks.values())) - 1
    assert r"\toprule" in out and r"\bottomrule" in out and "tok:13a" in out


def test_all_pairs_text_and_holm(capsys):
    code, out, _ = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", DEMO / "system-b.txt",
                       "--all-pairs", "--correction", "holm", "--alpha", "0.1", "--paired-ar-n", "500")
    assert code == 0 and "Holm-corrected" in out and "α = 0.1" in out and "rank" in out


@pytest.mark.parametrize("argv, message", [
    (["--alpha", "0.1"], "--alpha applies to --all-pairs and --format latex only"),
    (["--correction", "holm"], "--correction applies to --all-pairs and --format latex only"),
    (["--all-pairs", "--alpha", "1.5"], "--alpha must be between 0 and 1"),
    (["--all-pairs", "-b"], "--all-pairs prints the pair matrix"),
    (["--all-pairs", "--variant", "nltk"], "need the sacrebleu variant"),
    (["-f", "latex", "-sl"], "--format latex prints the systems table"),
])
def test_table_flags_refused_where_they_would_be_ignored(capsys, argv, message):
    code, _, err = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", DEMO / "system-b.txt", *argv)
    assert code == 2 and message in err, err


def test_all_pairs_needs_two_systems(capsys):
    code, _, err = cli(capsys, DEMO / "ref1.txt", "-i", DEMO / "system-a.txt", "--all-pairs")
    assert code == 2 and "paired tests need a baseline and at least one more system" in err


def test_help_loads_no_numpy_and_no_metric():
    # `bleu-score --help` builds its parser from every family's settings: those are plain Python, so the help
    # starts without numpy (~80 ms) and without any metric's arithmetic. A fresh interpreter shows what it loaded.
    code = ("import sys, contextlib, io\nfrom bleu_gui.cli.bleu_score import main\nsys.argv = ['bleu-score', '--help']\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):\n    main()\n"
            "assert '--chrf-word-order' in out.getvalue() and '--ter-asian-support' in out.getvalue()\n"
            "arithmetic = {'bleu.metric', 'bleu.variant_sacrebleu', 'chrf.chrf', 'ter.ter', 'edit.edit', "
            "'imported.imported'}\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numpy' "
            "or m.removeprefix('bleu_gui.core.metrics.') in arithmetic))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_module_loaded_by_name_is_named_for_the_bundle():
    # Families' metrics and BLEU's variants are imported by name when first used; a bundler finds only what import
    # statements name, so scripts/bundle.py ships modules_by_name(). Every such module must be in it and load.
    import importlib

    from bleu_gui.core.metrics.bleu.variants import VARIANTS, get_variant
    from bleu_gui.core.metrics.registry import modules_by_name

    metrics = Path(__file__).resolve().parents[1] / "bleu_gui" / "core" / "metrics"
    binding = {f"bleu_gui.core.metrics.{p.parent.name}.{p.stem}" for p in metrics.glob("*/*.py")
               if "\ndef bind(" in p.read_text(encoding="utf-8")}
    variants = {f"bleu_gui.core.metrics.bleu.{p.stem}" for p in metrics.glob("bleu/variant_*.py")}
    named = modules_by_name()
    assert binding | variants == set(named) and len(named) == len(set(named))
    assert all(importlib.import_module(m) for m in named)
    assert [get_variant(v).name for v in VARIANTS] == list(VARIANTS)


def test_minus_l_takes_a_language_pair_as_sacrebleu_does(capsys):
    from sacrebleu.metrics import BLEU

    folder = data_set("wmt22-en-ja")
    refs = (folder / "ref1.txt").read_text(encoding="utf-8").splitlines()[:50]
    hyps = (folder / "sys1.txt").read_text(encoding="utf-8").splitlines()[:50]
    oracle = BLEU(trg_lang="ja").corpus_score(hyps, [refs])  # what sacrebleu -l en-ja scores
    for flags in (["-l", "en-ja"], ["--langs", "en", "ja"]):
        code, out, err = _score_lines(capsys, refs, hyps, flags)
        assert code == 0, err
        assert float(out.strip()) == pytest.approx(oracle.score, abs=0.005)
    with pytest.raises(SystemExit) as refused:
        _score_lines(capsys, refs, hyps, ["-l", "enja"])
    assert refused.value.code == 2
    assert "a language pair is SRC-TGT (en-ja, de-en), got 'enja'" in capsys.readouterr().err


def _score_lines(capsys, refs, hyps, flags):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        ref, hyp = Path(folder) / "ref.txt", Path(folder) / "hyp.txt"
        ref.write_text("\n".join(refs) + "\n", encoding="utf-8")
        hyp.write_text("\n".join(hyps) + "\n", encoding="utf-8")
        return cli(capsys, ref, "-i", hyp, *flags, "-b")
