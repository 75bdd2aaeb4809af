"""Character edit distance (-m edit): exactly rapidfuzz's Levenshtein distance and a hand-written one, sentence and
corpus, on random Unicode and on the shared sets; the closest reference by its rules; the operations rebuild the
reference; the fuzzy band at its edges; the command, the tests, slices and the window reach it through the registry."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from bleu_gui.cli.bleu_score import run as bleu_score
from bleu_gui.core import RunConfig, SegmentFile, score_run
from bleu_gui.core.metrics.edit.config import EditConfig
from bleu_gui.core.metrics.edit.edit import EditDistance
from bleu_gui.core.metrics.edit.explain import edit_evidence

from .conftest import data_set


def levenshtein(a: str, b: str) -> int:
    """The textbook dynamic programme over code points: the second oracle."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def closest(hyp: str, refs: list[str], distance=Levenshtein.distance) -> tuple[int, int]:
    """(edits, length) of the reference the rules choose: fewest edits, then the shorter, then the first."""
    return min((distance(hyp, r), len(r), k) for k, r in enumerate(refs))[:2]


def rate(edits: int, length: int) -> float:
    """Edits over the reference's length, times 100 (in that order, as the definition says it)."""
    return edits / length * 100 if length else (100.0 if edits else 0.0)


# Letters of many scripts, combining marks, an astral emoji, spaces: code points, not bytes or graphemes.
TEXT = st.text(alphabet=st.sampled_from(list("abc ábç日本語中文кот„“ß\u0301😀Ωω ")), max_size=25)


@given(st.lists(st.tuples(TEXT, TEXT, TEXT), min_size=1, max_size=8))
def test_sentence_and_corpus_equal_rapidfuzz_and_the_textbook_on_random_unicode(rows):
    hyps, ref1, ref2 = ([r[k] for r in rows] for k in range(3))
    metric = EditDistance([ref1, ref2])
    stats = metric.statistics(hyps)
    for i, h in enumerate(hyps):
        assert tuple(stats[i, :2]) == closest(h, [ref1[i], ref2[i]]) == closest(h, [ref1[i], ref2[i]], levenshtein)
        assert stats[i, 2] == len(h)
    assert metric.sentence_scores(stats).tolist() == [rate(*closest(h, [a, b])) for h, a, b in rows]
    chosen = [closest(h, [a, b]) for h, a, b in rows]
    total = (sum(e for e, _ in chosen), sum(n for _, n in chosen))
    assert metric.corpus_score(stats).score == rate(*total)


def test_the_closest_reference_by_its_rules():
    metric = EditDistance([["abcd", "abcd", "abcde", ""], ["abce", "ab", "ab", ""]])
    stats = metric.statistics(["abc", "abc", "abc", "xyz"])
    # equal edits and lengths: the first; equal edits: the shorter; fewer edits win over length; an empty reference
    assert stats[:, :2].tolist() == [[1, 4], [1, 2], [1, 2], [3, 0]]
    assert metric.sentence_scores(stats).tolist() == [25.0, 50.0, 50.0, 100.0]
    assert EditDistance([[""]]).sentence_scores(EditDistance([[""]]).statistics([""])).tolist() == [0.0]


@given(TEXT, TEXT)
def test_the_operations_turn_the_candidate_into_the_reference(hyp, ref):
    e = edit_evidence(EditDistance([[ref]]), 0, hyp)
    assert e.replaced + e.deleted + e.inserted == e.edits == levenshtein(hyp, ref)
    rebuilt = "".join(b.ref_text if b.op != "delete" else "" for b in e.blocks)
    assert rebuilt == ref and "".join(b.hyp_text for b in e.blocks) == hyp
    assert all(hyp[o.hyp_start:o.hyp_end] == o.hyp_text and ref[o.ref_start:o.ref_end] == o.ref_text for o in e.blocks)


@pytest.mark.parametrize("hyp, ref, similarity, band", [
    ("a" * 20, "a" * 20, 100, "100%"),
    ("a" * 19 + "b", "a" * 20, 95, "95–99%"),          # 1 − 1/20 = 95% exactly
    ("a" * 249 + "b", "a" * 250, 99, "95–99%"),        # 99.6%: floored, not a 100% match
    ("a" * 17 + "bbb", "a" * 20, 85, "85–94%"),
    ("abcd", "abxy", 50, "50–74%"),
    ("abc", "xyz", 0, "<50%"),
    ("", "", 100, "100%"),
])
def test_the_fuzzy_band_at_its_edges(hyp, ref, similarity, band):
    e = edit_evidence(EditDistance([[ref]]), 0, hyp)
    assert (e.similarity, e.band) == (similarity, band)


def test_lowercase_lowers_both_texts():
    metric = EditDistance([["The Cat"]], EditConfig(lowercase=True))
    assert metric.statistics(["the CAT"])[0, 0] == 0
    assert "case:lc" in metric.signature() and "case:mixed" in EditDistance([["x"]]).signature()


@pytest.mark.parametrize("name, refs", [("wmt22-en-ja", ["ref1.txt"]), ("wmt22-en-zh-2ref", ["ref1.txt", "ref2.txt"]),
                                        ("sacrebleu-wmt17-en-de", ["ref1.txt"]), ("wmt21-en-de-3ref", None)])
def test_the_shared_sets_equal_rapidfuzz_sentence_and_corpus(name, refs):
    folder = data_set(name)
    ref_paths = [folder / r for r in refs] if refs else sorted(folder.glob("ref*.txt"))
    references = [p.read_text(encoding="utf-8").splitlines() for p in ref_paths]
    hyps = (folder / "sys1.txt").read_text(encoding="utf-8").splitlines()
    run = score_run([SegmentFile(folder / "sys1.txt", hyps, "utf-8")],
                    [SegmentFile(p, r, "utf-8") for p, r in zip(ref_paths, references)], RunConfig((EditConfig(),)))
    result = run.systems[0].results[0]
    chosen = [closest(h, [r[i] for r in references]) for i, h in enumerate(hyps)]
    assert result.stats[:, :2].tolist() == [list(c) for c in chosen]
    assert result.sentences.tolist() == [rate(*c) for c in chosen]
    assert result.corpus.score == rate(sum(e for e, _ in chosen), sum(n for _, n in chosen))


def write(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@given(st.lists(st.tuples(st.text(alphabet="abcİı ", max_size=10), st.text(alphabet="abcİı ", max_size=10),
                          st.text(alphabet="abcİı ", max_size=10)), min_size=1, max_size=4), st.booleans())
def test_what_error_recall_reads_is_the_evidence_s_operations(rows, lowercase):
    """flagged (the lines measured together) gives the blocks of the window's evidence that are not equal, against
    the same reference; none where lowercasing changed a line's length ("İ")."""
    hyps = [h for h, _a, _b in rows]
    metric = EditDistance([[a for _h, a, _b in rows], [b for _h, _a, b in rows]], EditConfig(lowercase=lowercase))
    expected = []
    for i, h in enumerate(hyps):
        e = edit_evidence(metric, i, h)
        expected.append([(o.hyp_start, o.hyp_end) for o in e.operations] if len(e.hypothesis) == len(h) else [])
    assert metric.flagged(list(range(len(hyps))), hyps) == expected


def test_the_command_explains_tests_and_slices_the_edit_distance(tmp_path, capsys):
    ref = write(tmp_path, "ref.txt", ["the cat sat on the mat", "hello world", "ein Haus am See"])
    a = write(tmp_path, "a.txt", ["the cat sits on the mat", "hello world", "ein Haus am Meer"])
    b = write(tmp_path, "b.txt", ["a cat sat on a mat", "hello", "Haus"])
    assert bleu_score([ref, "-i", a, "-m", "edit", "--explain", "3", "-f", "json"]) == 0
    said = json.loads(capsys.readouterr().out)
    evidence = said[0]["edit"]
    assert evidence["edits"] == Levenshtein.distance("ein Haus am Meer", "ein Haus am See")
    assert [o["op"] for o in evidence["operations"]] and all("from" in o and "to" in o for o in evidence["operations"])
    assert bleu_score([ref, "-i", a, b, "-m", "edit", "--paired-bs", "--paired-bs-n", "200"]) == 0
    out = capsys.readouterr().out
    assert "EditDistance" in out and "p =" in out
    assert bleu_score([ref, "-i", a, b, "-m", "edit", "--where", "edit[a.txt] > 0"]) == 0
    assert capsys.readouterr().out.count("EditDistance") >= 1
    assert bleu_score([ref, "-i", a, "--edit-lowercase"]) == 2
    assert "edit" in capsys.readouterr().err  # a setting of a metric not scored is refused


def test_the_window_shows_the_edits_of_a_sentence(qtbot, views):
    from bleu_gui.core import BleuConfig
    from bleu_gui.demo import demo_paths

    views.show_demo(qtbot, config=RunConfig((BleuConfig(), EditConfig())))
    systems, refs = demo_paths()
    hyp = systems[1].read_text(encoding="utf-8").splitlines()[3]
    references = [r.read_text(encoding="utf-8").splitlines()[3] for r in refs]
    views.controller.set_metric(1)
    views.controller.set_system(1)
    views.controller.set_sentence(3)
    evidence = views.inspect.evidence
    assert views.inspect.top_stack.currentWidget() is evidence
    edits, length = closest(hyp, references)
    assert f"sentence edit distance {rate(edits, length):.2f}" in evidence.sentence_label.text()
    assert evidence.panes[0].text.toPlainText().replace("␣", " ") == hyp
    assert evidence.explain_panel.explanation.headline.startswith(f"Edit distance = {edits} edits")
    assert np.isclose(sum(evidence.shown.chart.values[0]), edits)
