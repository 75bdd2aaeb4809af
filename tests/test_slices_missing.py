"""Slices and missing data (issue 57, items 11–16): = compares as numbers are shown, sets follow the three-valued
rule, an empty expression is refused, the slice box says its own errors and how it combines with a domain slice,
rater agreement is the statistic it is named, and approximate randomization says when no test can be significant.
Oracles: sacreBLEU's sentence scores, sklearn-free hand-worked kappas, sacreBLEU's paired AR."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from bleu_gui.core.analysis.slice_expr import evaluate, parse_where
from bleu_gui.core.errors import InputError

from .conftest import cli, data_set

MQM = "scores-mqm-ted-ende/mqm_ted_ende.tsv"



# -- 11. = compares numbers as they are shown ----------------------------------------------------------------------

def test_equal_to_100_finds_every_sentence_shown_at_100(capsys):
    path = data_set("formats") / MQM
    code, out, err = cli(capsys, path, "--refs", "ref", "--systems", "Facebook-AI", "-sl", "-f", "json")
    assert code == 0, err
    rows = json.loads(out)["sentences"]
    shown_100 = [i for i, r in enumerate(rows) if f"{r['score']:.2f}" == "100.00"]
    exactly_100 = [i for i, r in enumerate(rows) if r["score"] == 100.0]
    assert len(shown_100) > len(exactly_100)  # sacreBLEU's perfect match is 100.00000000000004
    code, out, err = cli(capsys, path, "--refs", "ref", "--systems", "Facebook-AI",
                         "--where", "bleu[Facebook-AI] = 100", "-f", "json")
    assert code == 0, err
    assert f"({len(shown_100)} of {len(rows)} segments)" in err
    code, out, err = cli(capsys, path, "--refs", "ref", "--systems", "Facebook-AI",
                         "--where", "bleu[Facebook-AI] != 100", "-f", "json")
    assert f"({len(rows) - len(shown_100)} of {len(rows)} segments)" in err


def test_equal_uses_the_decimals_typed_when_finer():
    values = np.array([0.82341, 0.8234, 0.82, 100.00000000000004, np.nan])

    def holds(text):
        return evaluate(parse_where([text], lambda w: False), lambda f: values, len(values)).tolist()

    assert holds("x = 0.8234") == [True, True, False, False, False]
    assert holds("x = 0.82") == [True, True, True, False, False]
    assert holds("x = 100") == [False, False, False, True, False]
    assert holds("x < 100") == [True, True, True, False, False]  # order comparisons take the numbers themselves
    assert holds("x != 100") == [True, True, True, False, False]  # missing: neither


def test_sentence_bleu_oracle_agrees_with_the_rule():
    assert BLEU(effective_order=True).sentence_score("a b c d e", ["a b c d e"]).score == 100.00000000000004


# -- 12. sets follow the three-valued rule ----------------------------------------------------------------------

def test_a_set_of_an_unrated_segment_makes_no_comparison_true_negated_or_not(tmp_path, capsys):
    from bleu_gui.demo import demo_folder

    demo = demo_folder("en")
    spans = tmp_path / "spans.jsonl"
    spans.write_text('{"system": "system-a.txt", "segment": 1, "start": 0, "end": 3, "severity": "Major", "rater": "r"}\n'
                     '{"system": "system-a.txt", "segment": 2, "start": 0, "end": 3, "severity": "Minor", "rater": "r"}\n'
                     '{"system": "system-a.txt", "segment": 3, "severity": "No-error", "rater": "r"}\n',
                     encoding="utf-8")
    base = [demo / "ref1.txt", "-i", demo / "system-a.txt", "--annotations", spans, "--scores-partial", "-b"]
    expected = {"'Major' in mqm_severities[system-a]": 1, "not 'Major' in mqm_severities[system-a]": 2,
                "mqm_severities[system-a] is missing": 9, "not 'rater' in mqm_raters[system-a]": 3,
                "mqm_errors[system-a] > 5": None,
                "'r' in mqm_raters[system-a] or mqm_errors[system-a] is missing": 12}
    for text, count in expected.items():
        code, _, err = cli(capsys, *base, "--where", text)
        if count is None:
            assert code == 2 and "no segment has" in err, err
        else:
            assert code == 0 and f"({count} of 12 segments)" in err, (text, err)


# -- 13. an empty expression is refused ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "   "])
def test_an_empty_expression_is_refused(capsys, text):
    from bleu_gui.demo import demo_folder

    demo = demo_folder("en")
    with pytest.raises(InputError, match="an empty expression"):
        parse_where([text], lambda w: False)
    code, _, err = cli(capsys, demo / "ref1.txt", "-i", demo / "system-a.txt", "--where", text)
    assert code == 2 and "an empty expression" in err


# -- 15. rater agreement: Scott's π over every pair, Cohen's κ for each two raters ---------------------------------

def test_cohen_kappa_of_each_two_raters_equals_sklearns(tmp_path, capsys):
    import random

    from sklearn.metrics import cohen_kappa_score

    from bleu_gui.demo import demo_folder

    demo = demo_folder("en")
    rng = random.Random(57)
    rows, worst = [], {}
    rank = {"No-error": 0, "Minor": 1, "Major": 2}
    for system in ("system-a.txt", "system-b.txt"):
        for segment in range(1, 13):
            for rater in rng.sample(["r1", "r2", "r3", "r4"], rng.choice([1, 2, 3])):
                for severity in rng.sample(["Minor", "Major", "No-error"], rng.choice([1, 2])):
                    if severity == "No-error":
                        rows.append({"system": system, "segment": segment, "severity": severity, "rater": rater})
                    else:
                        rows.append({"system": system, "segment": segment, "start": 0, "end": 2, "severity": severity,
                                     "rater": rater})
                    key = (system, segment, rater)
                    worst[key] = max(worst.get(key, 0), rank[severity])
    spans = tmp_path / "spans.jsonl"
    spans.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, out, err = cli(capsys, demo / "ref1.txt", "-i", demo / "system-a.txt", demo / "system-b.txt",
                         "--annotations", spans, "--rater-agreement", "-f", "json")
    assert code == 0, err
    found = json.loads(out)["rater_agreement"]
    assert "kappa" not in found and "scott_pi" in found
    pairs = {tuple(p["raters"]): p for p in found["cohen_kappa"]}
    raters = {}
    for s, g, r in worst:
        raters.setdefault((s, g), set()).add(r)
    assert set(pairs) == {(a, b) for rs in raters.values() for a in rs for b in rs if a < b}
    for (a, b), pair in pairs.items():
        both = [(s, g) for (s, g, r) in worst if r == a and (s, g, b) in worst]
        labels_a = [worst[s, g, a] > 0 for s, g in both]
        labels_b = [worst[s, g, b] > 0 for s, g in both]
        assert pair["segments"] == len(both)
        oracle = cohen_kappa_score(labels_a, labels_b)
        assert pair["kappa"] == pytest.approx(oracle, abs=1e-12) if not np.isnan(oracle) else pair["kappa"] is None


# -- 16. approximate randomization when the systems differ in one segment ----------------------------------------

def _one_segment_apart(tmp_path, differing: int):
    from bleu_gui.demo import demo_folder

    demo = demo_folder("en")
    a = (demo / "system-a.txt").read_text(encoding="utf-8").splitlines()
    b = list(a)
    for i in range(differing):
        b[i] = b[i] + " extra"
    sys_a, sys_b = tmp_path / "a.txt", tmp_path / "b.txt"
    sys_a.write_text("\n".join(a) + "\n", encoding="utf-8")
    sys_b.write_text("\n".join(b) + "\n", encoding="utf-8")
    scores = tmp_path / "scores.tsv"
    scores.write_text("system\tsegment\tqe\n" + "".join(
        f"{name}\t{i + 1}\t{0.5 + 0.01 * i + (0.2 if name == 'b.txt' and i < differing else 0)}\n"
        for name in ("a.txt", "b.txt") for i in range(len(a))), encoding="utf-8")
    return demo / "ref1.txt", sys_a, sys_b, scores, a, b


def test_scores_that_differ_in_one_segment_keep_sacrebleus_p_and_are_never_starred(tmp_path, capsys):
    from sacrebleu.significance import PairedTest

    ref, sys_a, sys_b, scores, a, b = _one_segment_apart(tmp_path, 1)
    code, out, err = cli(capsys, ref, "-i", sys_a, sys_b, "--scores", scores, "-m", "bleu", "qe", "--paired-ar",
                         "-f", "json")
    assert code == 0, err
    found = {(o["metric"], o["system"]): o for o in json.loads(out)}
    refs = [ref.read_text(encoding="utf-8").splitlines()]
    _, sacre = PairedTest([("a.txt", a), ("b.txt", b)], {"BLEU": BLEU(references=refs)}, references=None,
                          test_type="ar", n_samples=10000)()
    oracle = sacre["BLEU"][1].p_value
    assert found["BLEU", "b.txt"]["p_value"] == pytest.approx(oracle)  # sacreBLEU's number, kept
    assert "why_not_significant" not in found["BLEU", "b.txt"]
    qe = found["qe", "b.txt"]
    # Every trial ties the observed difference (up to the last bit of a float sum): p says nothing either way.
    assert 0 < qe["p_value"] <= 1
    assert "differ in one segment" in qe["why_not_significant"] and "6 are needed" in qe["why_not_significant"]
    code, out, err = cli(capsys, ref, "-i", sys_a, sys_b, "--scores", scores, "-m", "qe", "--paired-ar")
    assert code == 0, err
    assert "p = " in out and "*)" not in out
    assert "not starred: a.txt and b.txt differ in one segment" in out


def test_enough_differing_segments_may_be_significant(tmp_path, capsys):
    ref, sys_a, sys_b, scores, *_ = _one_segment_apart(tmp_path, 8)
    code, out, err = cli(capsys, ref, "-i", sys_a, sys_b, "--scores", scores, "-m", "qe", "--paired-ar")
    assert code == 0, err
    assert "not starred" not in out and "*)" in out
