"""Slice expressions (--where): the parser's messages, and slices whose scores and paired tests equal sacreBLEU's
on the same subset of lines (the subset chosen here by hand from the same fields)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF

from bleu_gui.core.analysis.slice_expr import Compare, Field, Logic, describe, evaluate, parse_where
from bleu_gui.core.errors import InputError

from .conftest import cli, data_set
from .oracles import sacre_tokenizer


def parse(text, fields=("doc",)):
    return parse_where([text], lambda word: word in fields)


def test_the_grammar_reads_and_or_not_parentheses_and_bare_values():
    expr = parse("ref_words >= 20 and not (doc = abc-1 or doc = 'a b') or bleu[B] > bleu[A]")
    assert isinstance(expr, Logic) and expr.op == "or"
    first = expr.parts[0]
    assert isinstance(first, Logic) and first.op == "and"
    assert first.parts[0] == Compare(Field("ref_words"), ">=", 20.0)
    assert expr.parts[1] == Compare(Field("bleu", "B"), ">", Field("bleu", "A"))
    assert describe(expr) == "(ref_words >= 20 and not (doc = abc-1 or doc = 'a b')) or bleu[B] > bleu[A]"
    assert parse("doc=abc-123") == Compare(Field("doc"), "==", "abc-123")  # KEY=VALUE reads as before
    assert parse("delta_bleu < -10") == Compare(Field("delta_bleu"), "<", -10.0)


@pytest.mark.parametrize(("text", "position", "expected"), [
    ("ref_words >=", 13, "a value or a field"),
    ("ref_words 20", 11, "an operator"),
    ("(doc = a", 9, "')'"),
    ("doc = a and", 12, "a field"),
    ("bleu[A > 3", 8, "']'"),
    ("doc = a doc = b", 9, "'and', 'or' or the end"),
])
def test_a_bad_expression_says_where_and_what_was_expected(text, position, expected):
    with pytest.raises(InputError) as caught:
        parse(text)
    message = str(caught.value)
    assert f"at position {position}: expected {expected}" in message
    caret = message.splitlines()[-1]
    assert caret.index("^") - 2 == position - 1  # the caret under that position


def test_evaluate_leaves_missing_scores_out_and_compares_text_as_numbers():
    values = {"x": np.array([1.0, np.nan, 3.0]), "n": np.array(["10", "2", "30"], dtype=object)}

    def fields(field):
        return values[field.name]

    assert evaluate(parse("x >= 1"), fields, 3).tolist() == [True, False, True]
    # A comparison with a missing value is false, negated or not (three-valued logic); `is missing` asks for it.
    assert evaluate(parse("not x >= 1"), fields, 3).tolist() == [False, False, False]
    assert evaluate(parse("x != 1"), fields, 3).tolist() == [False, False, True]
    assert evaluate(parse("not (x > 2 or x < 2)"), fields, 3).tolist() == [False, False, False]
    assert evaluate(parse("x > 2 or not x > 2"), fields, 3).tolist() == [True, False, True]
    assert evaluate(parse("x is missing"), fields, 3).tolist() == [False, True, False]
    assert evaluate(parse("x is not missing and x < 2"), fields, 3).tolist() == [True, False, False]
    assert evaluate(parse("n > 5"), fields, 3).tolist() == [True, False, True]  # "10" > "5" as numbers
    with pytest.raises(InputError, match="holds text, not numbers"):
        evaluate(parse("d > 1"), lambda f: np.array(["a", "b", "c"], dtype=object), 3)


@pytest.mark.slow
def test_a_slice_by_length_and_by_which_system_wins_equals_sacrebleu_on_those_lines(capsys):
    folder = data_set("sacrebleu-wmt17-en-de")
    ref = (folder / "ref1.txt").read_text(encoding="utf-8").splitlines()
    a = (folder / "sys1.txt").read_text(encoding="utf-8").splitlines()
    b = (folder / "sys2.txt").read_text(encoding="utf-8").splitlines()
    where = "ref_words >= 20 and bleu[B] > bleu[A]"
    code, out, err = cli(capsys, folder / "ref1.txt", "-i", folder / "sys1.txt", folder / "sys2.txt",
                         "--labels", "A", "B", "-m", "bleu", "chrf", "--where", where, "--paired-bs", "-f", "json")
    assert code == 0, err
    # The oracle's subset: 13a word counts of the reference, sacreBLEU's own sentence BLEU of each system.
    tok = sacre_tokenizer("13a")
    sentence = BLEU(effective_order=True)
    keep = [i for i in range(len(ref)) if len(tok(ref[i]).split()) >= 20
            and sentence.sentence_score(b[i], [ref[i]]).score > sentence.sentence_score(a[i], [ref[i]]).score]
    assert 50 < len(keep) < len(ref) // 2
    rows = json.loads(out)
    by = {(r["system"], r["metric"]): r for r in rows}
    for name, lines in (("A", a), ("B", b)):
        sub_h, sub_r = [lines[i] for i in keep], [[ref[i] for i in keep]]
        assert by[name, "BLEU"]["score"] == pytest.approx(BLEU().corpus_score(sub_h, sub_r).score, abs=1e-9)
        assert by[name, "chrF2"]["score"] == pytest.approx(CHRF().corpus_score(sub_h, sub_r).score, abs=1e-9)
    assert f"slice: {where} ({len(keep):,} of {len(ref):,} segments)" in err
    assert by["B", "BLEU"]["p_value"] is not None


def test_fields_the_run_lacks_are_named(capsys):
    folder = data_set("sacrebleu-wmt17-en-de")
    code, out, err = cli(capsys, folder / "ref1.txt", "-i", folder / "sys1.txt", "--where", "COMET[sys1.txt] > 0")
    assert code == 2 and "no field 'COMET[sys1.txt]'" in err and "a metric of the run (bleu)" in err
    code, out, err = cli(capsys, folder / "ref1.txt", "-i", folder / "sys1.txt", "--where", "bleu[X] > 0")
    assert code == 2 and "no system 'X' in bleu[X] (systems: sys1.txt)" in err
    code, out, err = cli(capsys, folder / "ref1.txt", "-i", folder / "sys1.txt", "--where", "src_words > 3")
    assert code == 2 and "src_words needs the source" in err


def test_the_window_slices_by_an_expression_typed_in_its_box(qtbot, window):
    with qtbot.waitSignal(window.run_changed):
        window.run_actions.open_demo()
    whole = window.controller.run
    a, b = (s.results[0].sentences for s in whole.systems)
    box = window.inspect.sentences.slice_panel.expression
    assert box.isVisible()  # the demo has no metadata, the box is there all the same
    box.setText("bleu[system-b.txt] > bleu[system-a.txt]")
    with qtbot.waitSignal(window.run_changed):
        box.returnPressed.emit()
    run = window.controller.run
    assert run.slice is not None and list(run.slice.rows) == np.flatnonzero(b > a).tolist()
    assert run.slice.description == "bleu[system-b.txt] > bleu[system-a.txt]"
    box.setText("bleu[system-b.txt] >")
    box.returnPressed.emit()  # a bad expression is said under the box (issue 57), the slice shown stays
    problem = window.inspect.sentences.slice_panel.problem
    assert not problem.isHidden() and "expected a value or a field" in problem.text()
    assert window.controller.run is run


def test_a_set_field_compared_as_a_value_says_how_to_ask(capsys):
    from bleu_gui.demo import demo_paths

    systems, refs = demo_paths()
    code, out, err = cli(capsys, refs[0], "-i", *systems, "--where", "qa[system-a.txt] > 1")
    assert code == 2 and "ask 'NAME' in qa[system-a.txt], e.g. 'number' in qa[system-a.txt]" in err
    assert "Traceback" not in err


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECES = st.sampled_from(["doc", "=", "==", "!=", "<", ">=", "and", "or", "not", "(", ")", "[", "]", "bleu", "A",
                           "'x y'", '"q"', "in", "qa", "3.5", "-2", "abc-1", "'", "!", "#", " "])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=12).map(" ".join) | st.text(max_size=30))
def test_any_text_parses_or_says_what_is_wrong(text):
    """Never another exception: the user gets a position and what was expected."""
    try:
        expr = parse(text)
    except InputError as exc:
        assert exc.raw.startswith("⟦where⟧")  # the field, which the command and the window each word
        return
    if expr is None:
        return
    values = {"doc": np.array(["a", "b"], dtype=object)}

    def fields(field):
        if field.name in values and field.system is None:
            return values[field.name]
        raise InputError(f"--where: no field {field}")

    try:
        evaluate(expr, fields, 2)
    except InputError:
        pass
