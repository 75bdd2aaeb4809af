"""Human MQM annotations as evidence: MQM equal to Google's own segment scores on its WMT21 TED en-de file, spans
that mark exactly the text the raters marked, the three file forms read alike, bad rows refused naming the line,
which errors each metric saw on hand-worked sentences, rater agreement worked out by hand, and the window's strip
and Compare panel."""

from __future__ import annotations

import csv
import json
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleu_gui.core import RunConfig, score_run
from bleu_gui.core.analysis.error_recall import SystemRecall, _Rated, error_recall, touches
from bleu_gui.core.analysis.error_table import error_table
from bleu_gui.core.analysis.rater_agreement import rater_agreement
from bleu_gui.core.inputs.ratings import ErrorSpan, Ratings
from bleu_gui.core.inputs.run_inputs import read_run_inputs
from bleu_gui.core.metrics.registry import family

from .conftest import cli, data_set

HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tcomment"
# Three segments; A's errors are worked out by hand in the tests below. Segment 2 and 3 of A have two raters.
ROWS = [
    "ref\td1\t1\t1\tr1\tsrc one\tthe cat sat on the mat\tNo-error\tno-error\t",
    "A\td1\t1\t1\tr1\tsrc one\tthe <v>dog</v> sat on the mat\tAccuracy/Mistranslation\tMajor\twrong animal",
    "A\td1\t1\t1\tr1\tsrc one\tthe dog sat on the <v>mat</v>\tStyle/Awkward\tminor\t",
    "B\td1\t1\t1\tr1\tsrc one\tthe cat sat on a mat\tNo-error\tNo-error\t",
    "ref\td1\t1\t2\tr1\tsrc two\ta big house\tNo-error\tNo-error\t",
    "A\td1\t1\t2\tr1\tsrc two\ta big house\tNo-error\tNo-error\t",
    "A\td1\t1\t2\tr2\tsrc two\ta <v>big</v> house\tFluency/Grammar\tMinor\t",
    "B\td1\t1\t2\tr1\tsrc two\ta big house\tNo-error\tNo-error\t",
    "ref\td1\t1\t3\tr1\tsrc three\tone two three\tNo-error\tNo-error\t",
    "A\td1\t1\t3\tr1\tsrc three\tone <v>two</v>\tAccuracy/Omission\tMajor\t",
    "A\td1\t1\t3\tr2\tsrc three\t<v>one two</v>\tAccuracy/Mistranslation\t Major \t",
    "B\td1\t1\t3\tr1\tsrc three\tone two three\tNo-error\tNo_error\t",
]


def write(tmp_path, rows, name="mqm.tsv", header=HEADER):
    path = tmp_path / name
    path.write_text("\n".join(([header] if header else []) + rows) + "\n", encoding="utf-8")
    return path



def small_run(tmp_path, *keys):
    inputs = read_run_inputs([], [write(tmp_path, ROWS)], refs_wanted=["ref"])
    config = RunConfig(tuple(family(k).config() for k in keys), significance=None)
    return score_run(inputs.systems, inputs.references, config, context=inputs.context)


# -- MQM equal to Google's ---------------------------------------------------------------------------------------

def ted_files():
    folder = data_set("formats") / "scores-mqm-ted-ende"
    return folder / "mqm_ted_ende.tsv", folder / "mqm_ted_ende.avg_seg_scores.tsv"


@pytest.mark.slow
def test_every_segment_of_every_system_equals_googles_own_mqm(capsys):
    rated, google = ted_files()
    code, out, err = cli(capsys, rated, "--refs", "ref", "-m", "mqm", "-sl", "-f", "json")
    assert code == 0, err
    theirs: dict[str, dict[str, float]] = {}
    for line in google.read_text(encoding="utf-8").splitlines()[1:]:
        system, value, seg = line.split()
        theirs.setdefault(system, {})[seg] = math.nan if value == "None" else float(value)
    ours = json.loads(out)
    checked = 0
    for entry in ours:
        if entry["metric"] != "MQM":
            continue
        mine = {str(s["seg_id"]): s["score"] for s in entry["sentences"]}
        google_system = theirs[entry["system"]]
        # Google's file lists 606 segments, 77 of them None: segments its TSV has no row of (the run has 529).
        assert set(mine) == {seg for seg, value in google_system.items() if not math.isnan(value)}
        for seg, value in mine.items():
            # Google's file is printed to 6 decimals, every value a multiple of 0.1: exact sums rounded once are
            # the very doubles its numbers read as (summing the doubles in turn gives −1.2000000000000002).
            assert value == google_system[seg]
            checked += 1
        rated_values = [v for v in google_system.values() if not math.isnan(v)]
        assert entry["score"] == pytest.approx(sum(rated_values) / len(rated_values), abs=1e-6)
        assert entry["rated"] == len(rated_values)
    assert checked > 6000


@pytest.mark.slow
def test_categories_count_every_error_row_and_spans_are_the_marked_text(capsys):
    rated, _ = ted_files()
    code, out, err = cli(capsys, rated, "--refs", "ref", "-m", "mqm", "-f", "json")
    assert code == 0, err
    with rated.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    for entry in json.loads(out):
        expected: dict[str, dict[str, int]] = {}
        for row in rows:
            if row["system"] == entry["system"] and row["severity"].lower().replace("-", "") != "noerror":
                by_severity = expected.setdefault(row["category"], {})
                by_severity[row["severity"]] = by_severity.get(row["severity"], 0) + 1
        assert entry["categories"] == expected
    inputs = read_run_inputs([], [rated], refs_wanted=["ref"])
    spans = 0
    for system in inputs.systems:
        assert system.annotations is not None
        for line, ratings in zip(system.lines, system.annotations):
            for error in ratings.errors if ratings is not None else ():
                if error.start is not None and error.side == "target":
                    assert line[error.start:error.end] == error.text
                    spans += 1
    assert spans > 3000


def test_explain_lists_each_error_with_its_weight_and_span(tmp_path, capsys):
    code, out, err = cli(capsys, write(tmp_path, ROWS), "--refs", "ref", "-m", "mqm", "--explain", "1", "-f", "json")
    assert code == 0, err
    by_system = {e["system"]: e for e in json.loads(out)}
    errors = by_system["A"]["mqm"]["errors"]
    assert [(e["severity"], e["weight"], e["start"], e["end"], e["text"], e["comment"]) for e in errors] == [
        ("Major", 5.0, 4, 7, "dog", "wrong animal"), ("Minor", 1.0, 19, 22, "mat", "")]


def test_mqm_by_hand_on_the_small_file(tmp_path, capsys):
    code, out, err = cli(capsys, write(tmp_path, ROWS), "--refs", "ref", "-m", "mqm", "-sl", "-f", "json")
    assert code == 0, err
    got = {e["system"]: e for e in json.loads(out)}
    # A: segment 1 −(5 + 1); segment 2 raters 0 and −1 → −0.5; segment 3 raters −5 and −5 → −5.
    assert [s["score"] for s in got["A"]["sentences"]] == [-6.0, -0.5, -5.0]
    assert got["A"]["score"] == pytest.approx((-6 - 0.5 - 5) / 3)
    assert got["A"]["raters"] == {"r1": pytest.approx((-6 + 0 - 5) / 3), "r2": pytest.approx((-1 - 5) / 2)}
    assert got["B"]["score"] == 0.0 and got["B"]["rated"] == 3


def test_weights_are_settings(tmp_path, capsys):
    code, out, err = cli(capsys, write(tmp_path, ROWS), "--refs", "ref", "-m", "mqm", "--mqm-major", "10", "-sl",
                         "-f", "json")
    assert code == 0, err
    got = {e["system"]: e for e in json.loads(out)}
    assert [s["score"] for s in got["A"]["sentences"]] == [-11.0, -0.5, -10.0]


# -- the three forms read alike; unrated is missing --------------------------------------------------------------

def plain_files(tmp_path):
    """The small file's systems and reference as text files."""
    texts = {"A": ["the dog sat on the mat", "a big house", "one two"],
             "B": ["the cat sat on a mat", "a big house", "one two three"],
             "ref": ["the cat sat on the mat", "a big house", "one two three"]}
    paths = {}
    for name, lines in texts.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths


def jsonl_of_rows() -> list[str]:
    out = []
    for row in ROWS:
        system, _doc, _id, seg, rater, _src, target, category, severity, _comment = row.split("\t")
        if system == "ref":
            continue
        entry: dict[str, object] = {"system": system, "segment": int(seg), "rater": rater, "category": category,
                                    "severity": severity.strip()}
        if "<v>" in target:
            entry["start"] = target.index("<v>")
            entry["end"] = target.index("</v>") - 3
        out.append(json.dumps(entry))
    return out


def marot_row(row: str) -> str:
    """A row of the small file as Marot writes it: system doc docSegId globalSegId rater source target category
    severity metadata (the comment as its note)."""
    system, doc, _doc_id, seg, rater, source, target, category, severity, comment = row.split("\t")
    return "\t".join([system, doc, seg, seg, rater, source, target, category, severity, json.dumps({"note": comment})])


def test_marot_headerless_and_jsonl_spans_give_the_same_mqm(tmp_path, capsys):
    paths = plain_files(tmp_path)
    google = write(tmp_path, ROWS)
    # The same segments as a table of text with segment ids and no ratings, annotated by Google's file and by
    # Marot's (no header, a JSON metadata column); plain text annotated by JSON Lines of spans.
    texts = sorted({"\t".join(r.split("\t")[:6] + [re.sub("</?v>", "", r.split("\t")[6])]) for r in ROWS})
    table = write(tmp_path, texts, "texts.tsv", header="system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget")
    marot = write(tmp_path, [marot_row(r) for r in ROWS], "marot.tsv", header="")
    jsonl = tmp_path / "spans.jsonl"
    jsonl.write_text("\n".join(jsonl_of_rows()) + "\n", encoding="utf-8")
    results = []
    for argv in ([google, "--refs", "ref"], [table, "--refs", "ref", "--annotations", google],
                 [table, "--refs", "ref", "--annotations", marot],
                 [paths["ref"], "-i", paths["A"], paths["B"], "--annotations", jsonl]):
        code, out, err = cli(capsys, *argv, "-m", "mqm", "-sl", "-f", "json")
        assert code == 0, err
        results.append([[s["score"] for s in e["sentences"]] for e in json.loads(out)])
    assert results[0] == results[1] == results[2] == results[3] == [[-6.0, -0.5, -5.0], [0.0, 0.0, 0.0]]


def test_an_unrated_segment_is_missing_never_zero(tmp_path, capsys):
    paths = plain_files(tmp_path)
    jsonl = tmp_path / "spans.jsonl"
    jsonl.write_text("\n".join(line for line in jsonl_of_rows() if '"segment": 2' not in line) + "\n",
                     encoding="utf-8")
    code, out, err = cli(capsys, paths["ref"], "-i", paths["A"], paths["B"], "--annotations", jsonl, "-m", "mqm",
                         "-sl", "-f", "json")
    assert code == 0, err
    a = json.loads(out)[0]
    assert [s["score"] for s in a["sentences"]] == [-6.0, None, -5.0]
    assert a["score"] == -5.5 and (a["rated"], a["unrated"]) == (2, 1)


# -- bad input ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("target", "said"), [
    ("the <v>d<v>o</v>g</v> sat", r"line 3: the 'target' field nests"),
    ("the dog</v> sat", r"line 3: the 'target' field closes a </v> mark it never opened"),
])
def test_bad_marks_are_refused_naming_the_line(tmp_path, capsys, target, said):
    rows = [ROWS[0].replace("the cat sat on the mat", re.sub("</?v>", "", target)),
            ROWS[1].replace("the <v>dog</v> sat on the mat", target)]
    code, _out, err = cli(capsys, write(tmp_path, rows), "--refs", "ref", "-m", "mqm")
    assert code != 0 and "Traceback" not in err
    assert re.search(said, err), err
    assert "mqm.tsv" in err


def test_an_unknown_severity_is_refused_naming_line_and_value(tmp_path, capsys):
    rows = [*ROWS[:2], ROWS[2].replace("\tminor\t", "\tsevere\t"), *ROWS[3:]]
    code, _out, err = cli(capsys, write(tmp_path, rows), "--refs", "ref", "-m", "mqm")
    assert code != 0 and "line 4" in err and "'severe'" in err


def test_a_mark_never_closed_marks_the_rest_and_is_said(tmp_path, capsys):
    rows = [ROWS[0], ROWS[1].replace("the <v>dog</v> sat on the mat", "the dog sat on the <v>mat"), *ROWS[2:]]
    code, out, err = cli(capsys, write(tmp_path, rows), "--refs", "ref", "-m", "mqm", "--explain", "1", "-f", "json")
    assert code == 0, err
    a = next(e for e in json.loads(out) if e["system"] == "A")
    errors = a["mqm"]["errors"]
    assert (errors[0]["start"], errors[0]["end"], errors[0]["text"]) == (19, 22, "mat")
    assert "never closed" in err


def test_jsonl_spans_are_read_as_strictly_as_score_files(tmp_path, capsys):
    paths = plain_files(tmp_path)
    jsonl = tmp_path / "spans.jsonl"
    jsonl.write_text('{"system": "A", "segment": 1, "severity": "Major", "severity": "Minor"}\n', encoding="utf-8")
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--annotations", jsonl, "-m", "mqm")
    assert code == 2 and "line 1, column 1: the key 'severity' appears twice" in err


def test_annotations_of_a_system_the_run_lacks_are_refused_or_said(tmp_path, capsys):
    paths = plain_files(tmp_path)
    jsonl = tmp_path / "spans.jsonl"
    jsonl.write_text("\n".join([*jsonl_of_rows(), json.dumps({"system": "C", "segment": 1, "severity": "Major"})])
                     + "\n", encoding="utf-8")
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], paths["B"], "--annotations", jsonl, "-m", "mqm")
    assert code == 0 and "C" in err and "left out" in err


# -- which errors each metric saw --------------------------------------------------------------------------------

def test_touches_counts_shared_characters_and_places():
    assert touches((4, 7), (4, 7)) and touches((5, 6), (4, 7)) and not touches((7, 9), (4, 7))
    assert touches((7, 7), (4, 7)) and touches((4, 4), (4, 7)) and not touches((8, 8), (4, 7))
    assert touches((0, 9), (3, 3)) and not touches((0, 2), (3, 3))


_spans = st.lists(st.tuples(st.integers(0, 14), st.integers(0, 14)).map(sorted).map(tuple), max_size=5)


@given(text=st.text(alphabet="ab \t\u00e9\u3000\U0001F600", max_size=12), errors=_spans, flagged=_spans)
def test_a_metrics_flagged_and_noise_characters_are_those_of_its_spans_whitespace_aside(text, errors, flagged):
    # The definition, character by character: the flagged spans' characters (once each, cut at the text's end),
    # whitespace aside; noise, those of them in no error span.
    def characters(spans):
        return {i for a, b in spans for i in range(a, min(b, len(text))) if not text[i].isspace()}

    marked = characters(flagged)
    ratings = Ratings(("r",), tuple(ErrorSpan("r", "Accuracy", "Major", a, b) for a, b in errors))
    assert _Rated.of(0, text, ratings).counts(flagged) == (len(marked), len(marked - characters(errors)))


_near = st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)).map(sorted).map(tuple), max_size=4)


@given(text=st.text(alphabet="ab \u00e9", min_size=6, max_size=9), errors=_near, flagged=_near)
def test_an_error_is_seen_when_a_flagged_span_touches_it(text, errors, flagged):
    # The tally finds the touched errors by bit masks; the definition is touches(), span against span (errors and
    # flags reaching past the text included, where the tally falls back to it).
    ratings = Ratings(("r",), tuple(ErrorSpan("r", "Accuracy", "Major", a, b) for a, b in errors))
    row = SystemRecall("A", "M")
    _Rated.of(0, text, ratings).tally(row, flagged)
    wanted = sum(any(touches(f, e) for f in flagged) for e in errors)
    assert (row.severities["Major"].errors, row.severities["Major"].seen) == (len(errors), wanted)


def test_a_span_ending_far_past_its_text_counts_the_text_it_covers():
    far = 10**12  # a mask as long would not fit in memory (the readers leave such spans out; the tally cuts them)
    rated = _Rated.of(0, "ab cd", Ratings(("r",), (ErrorSpan("r", "Accuracy", "Major", 3, far),)))
    assert rated.counts([(0, far)]) == (4, 2)  # a, b, c, d flagged; a and b outside the error


def test_which_errors_each_metric_saw_by_hand(tmp_path):
    run = small_run(tmp_path, "bleu", "chrf", "ter", "edit", "mqm")
    systems = [s.file for s in run.systems]
    recall = error_recall(run.metrics, systems, names=[s.name for s in run.systems])
    got = {(r.system, r.metric): r for r in recall.rows}
    assert recall.metrics_left_out == ("MQM",)
    # A's Major errors: "dog" (substituted: every metric sees it), "two" and "one two" in "one two" against "one two
    # three": matched by BLEU and chrF, no substitution or deletion in TER, but the edit distance inserts " three"
    # at their end. A's Minor errors ("mat", "big") are in text every metric matched.
    for metric, major in (("BLEU", 1), ("chrF2", 1), ("TER", 1), ("EditDistance", 3)):
        row = got[("A", metric)]
        assert (row.severities["Major"].errors, row.severities["Major"].seen) == (3, major), metric
        assert (row.severities["Minor"].errors, row.severities["Minor"].seen) == (2, 0), metric
        assert row.noise_chars == 0, metric
    assert got[("A", "BLEU")].flagged_chars == 3            # d, o, g
    assert got[("A", "chrF2")].flagged_chars == 2           # d and g: the o matches the reference's "on"
    assert got[("A", "BLEU")].severities["Major"].missed_segments == [2]
    # B: no error marked; BLEU flags its "a" (the reference has "the"): all noise.
    b = got[("B", "BLEU")]
    assert (b.flagged_chars, b.noise_chars, b.noise_segments) == (1, 1, [0])


@pytest.mark.slow
def test_error_recall_on_the_ted_file_is_json_with_every_system(capsys):
    rated, _ = ted_files()
    code, out, err = cli(capsys, rated, "--refs", "ref", "-m", "bleu", "ter", "--error-recall", "-f", "json")
    assert code == 0, err
    found = json.loads(out)["error_recall"]
    assert len(found["rows"]) == 13 * 2
    for row in found["rows"]:
        major = row["severities"]["Major"]
        assert 0 <= major["seen"] <= major["errors"] and major["share"] == major["seen"] / major["errors"]
        assert 0 <= row["noise"] <= 1


def test_error_recall_without_annotations_is_refused(capsys, tmp_path):
    paths = plain_files(tmp_path)
    code, _out, err = cli(capsys, paths["ref"], "-i", paths["A"], "--error-recall")
    assert code != 0 and "annotations" in err


# -- rater agreement ---------------------------------------------------------------------------------------------

def test_rater_agreement_by_hand(tmp_path):
    run = small_run(tmp_path, "mqm")
    agreement = rater_agreement([s.file for s in run.systems], names=[s.name for s in run.systems])
    # A's segment 2: r1 no error, r2 Minor (disagree); segment 3: Major and Major (agree). 4 of 4 ratings in the
    # pairs say "error" 3 times: chance agreement 0.75² + 0.25² = 0.625; Scott's π (0.5 − 0.625) / 0.375.
    assert (agreement.pairs, agreement.presence, agreement.severity) == (2, 0.5, 0.5)
    assert agreement.scott_pi == pytest.approx(-1 / 3)
    # Cohen's κ of r1 and r2 over those two segments: r1 says "error" once, r2 twice; observed 0.5, chance
    # 0.5 · 1 + 0.5 · 0 = 0.5: κ = 0.
    assert [(p.raters, p.segments, p.kappa) for p in agreement.cohen] == [(("r1", "r2"), 2, 0.0)]
    assert [(a.system, a.segment, a.presence_agrees) for a in agreement.segments] == [("A", 1, False), ("A", 2, True)]


def test_rater_agreement_with_one_rater_says_so(capsys):
    rated, _ = ted_files()
    code, out, err = cli(capsys, rated, "--refs", "ref", "--rater-agreement")
    assert code == 0, err
    assert "no segment has two raters" in out


def test_error_table_counts_and_segments(tmp_path):
    run = small_run(tmp_path, "mqm")
    table = error_table(run.systems[0].file)
    assert table.system == run.systems[0].file.name
    assert table.categories[0] == "Accuracy/Mistranslation" and table.severities == ["Major", "Minor"]
    assert table.total(severity="Major") == 3 and table.total() == 5
    assert table.rows_of("Accuracy/Mistranslation", "Major") == [0, 2]
    assert table.rows_of(None, "Minor") == [0, 1]


# -- slices ------------------------------------------------------------------------------------------------------

def test_slices_select_by_severity_category_and_count(tmp_path, capsys):
    path = write(tmp_path, ROWS)
    for where, rows in (("'Major' in mqm_severities[A]", [1, 3]), ("mqm_errors[A] >= 2", [1, 3]),
                        ("'Fluency/Grammar' in mqm_categories[A]", [2]), ("'r2' in mqm_raters[A]", [2, 3])):
        code, out, err = cli(capsys, path, "--refs", "ref", "-m", "mqm", "--where", where, "-sl", "-f", "json")
        assert code == 0, (where, err)
        assert [s["line"] for s in json.loads(out)[0]["sentences"]] == rows, where


# -- the window ----------------------------------------------------------------------------------------------------

def test_the_inspect_strip_shows_the_raters_spans_beside_bleu(qtbot, views, tmp_path):
    run = views.show_scored(qtbot, small_run(tmp_path, "bleu", "mqm"))
    strip = views.inspect.human_errors
    views.controller.set_system(0)
    views.controller.set_sentence(0)
    assert strip.isVisibleTo(views.inspect) and views.inspect.top_stack.currentWidget() is views.inspect.detail
    assert strip.summary.text() == "1 Major, 1 Minor · rated by r1"
    html = strip.text.toHtml()
    assert "Major Accuracy/Mistranslation (r1): wrong animal" in html.replace("%20", " ").replace("&quot;", '"')
    marked = [f for f in strip.text.document().toPlainText().split() if f]
    assert marked == run.systems[0].lines[0].split()
    strip.toggle.setChecked(False)
    assert not strip.text.isVisibleTo(views.inspect)
    # MQM shown: its own panes hold the spans, the strip steps aside.
    views.controller.set_metric(1)
    assert not strip.isVisibleTo(views.inspect)


def test_compare_shows_the_raters_spans_under_a_and_b_beside_bleus_colours(qtbot, views, tmp_path):
    # A segment opened from Metrics vs humans lands in Compare's A and B panes with BLEU shown: the raters' spans
    # of A (2 errors on segment 1) and of B (none) are drawn under them, without switching the Metric to MQM.
    run = views.show_scored(qtbot, small_run(tmp_path, "bleu", "mqm"))
    panes = views.compare_view.panes
    views.controller.set_metric(0)
    views.controller.set_b(1)
    views.controller.set_sentence(0)
    assert panes.human_a.isVisibleTo(views.compare_view) and panes.human_b.isVisibleTo(views.compare_view)
    assert panes.human_a.summary.text() == "1 Major, 1 Minor · rated by r1"
    assert "Major Accuracy/Mistranslation (r1)" in panes.human_a.text.toHtml().replace("%20", " ")
    assert panes.human_b.summary.text() == "no error · rated by r1"
    assert panes.human_b.text.toPlainText() == run.systems[1].lines[0]
    views.controller.set_metric(1)  # MQM shown: the panes hold the spans themselves
    assert not panes.human_a.isVisibleTo(views.compare_view)


def test_compare_lists_errors_by_kind_and_a_click_slices_them(qtbot, views, tmp_path):
    from bleu_gui.gui.actions import Actions

    views.show_scored(qtbot, small_run(tmp_path, "bleu", "mqm"))
    asked = []
    views.controller.actions = Actions(apply_slice=lambda rows, why: asked.append((list(rows), why)))
    panel = views.compare_view.human
    assert panel.isVisibleTo(views.compare_view) or views.compare_view.lower_tabs.isTabVisible(
        views.compare_view.lower_tabs.indexOf(views.compare_view._human_page))
    assert panel.system.currentText() == "A"
    table = panel.table.model()
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert headers == ["category", "Major", "Minor", "all"]
    first = [table.item(0, c).text() for c in range(table.columnCount())]
    assert first == ["Accuracy/Mistranslation", "2", "", "2"]
    panel.table.clicked.emit(table.index(0, 1))
    assert asked == [([0, 2], "the segments where A has a Major Accuracy/Mistranslation error (MQM)")]
    assert "2 segments with several raters" in panel.agreement.text()


def test_compare_finds_which_errors_each_metric_saw_in_a_worker(qtbot, views, tmp_path):
    from bleu_gui.gui.actions import Actions

    views.show_scored(qtbot, small_run(tmp_path, "bleu", "ter", "mqm"))
    asked = []
    views.controller.actions = Actions(apply_slice=lambda rows, why: asked.append((list(rows), why)))
    panel = views.compare_view.human
    panel.recall_button.click()
    qtbot.waitUntil(lambda: panel.recall is not None and panel.recall_table.model().rowCount() == 2)
    table = panel.recall_table.model()
    assert [table.item(r, 0).text() for r in range(2)] == ["BLEU", "TER"]
    assert table.item(0, 1).text() == "33% of 3" and table.item(0, 2).text() == "0% of 2"
    panel.recall_table.clicked.emit(table.index(0, 1))
    assert asked == [([2], "the segments where BLEU missed a Major error of A (MQM)")]


def test_a_session_opens_the_annotations_again(tmp_path):
    from bleu_gui.core.inputs.run_inputs import InputRequest
    from bleu_gui.core.output.sessions import session_from_dict, session_of

    paths = plain_files(tmp_path)
    jsonl = tmp_path / "spans.jsonl"
    jsonl.write_text("\n".join(jsonl_of_rows()) + "\n", encoding="utf-8")
    request = InputRequest(systems=(str(paths["A"]), str(paths["B"])), references=(str(paths["ref"]),),
                           annotations=(str(jsonl),))
    inputs = read_run_inputs([paths["A"], paths["B"]], [paths["ref"]])
    run = score_run(inputs.systems, inputs.references, RunConfig((family("bleu").config(),), significance=None))
    again = session_from_dict(json.loads(json.dumps(session_of(run, 1, request).to_dict())))
    assert again.opening().annotations == (str(jsonl.absolute()),)
    jsonl.unlink()
    assert again.missing() == [str(jsonl.absolute())]


def test_the_open_dialog_takes_annotations(qtbot, tmp_path):
    from bleu_gui.gui.shell.open_dialog import OpenDialog

    dialog = OpenDialog()
    qtbot.addWidget(dialog)
    dialog.references.setText(str(tmp_path / "ref.txt"))
    dialog.systems.setText(str(tmp_path / "a.txt"))
    dialog.annotations.setText(f"{tmp_path / 'x.jsonl'};{tmp_path / 'y.tsv'}")
    assert dialog.choice().request.annotations == (str(tmp_path / "x.jsonl"), str(tmp_path / "y.tsv"))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "tokenizer"), [("wmt22-en-ja", "ja-mecab"), ("wmt22-en-zh-2ref", "zh"),
                                                 ("mtce-en-cs-medium", "13a"), ("sacrebleu-wmt17-en-de", "13a"),
                                                 ("wmt22-zh-en-2ref", "13a")])
def test_what_each_metric_flags_lies_in_the_text_in_every_script(tmp_path, name, tokenizer):
    """Spans as a span-producing metric writes them (every segment's middle third a Major error), on real text of
    each script: every flagged span is inside its line, a line equal to its reference flags nothing, and the
    error recall's counts hold together."""
    folder = data_set(name)
    n = 150
    system = [line.rstrip("\n") for line in (folder / "sys1.txt").read_text(encoding="utf-8").splitlines()[:n]]
    reference = [line.rstrip("\n") for line in (folder / "ref1.txt").read_text(encoding="utf-8").splitlines()[:n]]
    system[0] = reference[0]  # one line equal to its reference
    (tmp_path / "sys.txt").write_text("\n".join(system) + "\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("\n".join(reference) + "\n", encoding="utf-8")
    spans = tmp_path / "spans.jsonl"
    spans.write_text("\n".join(json.dumps({"system": "sys", "segment": i + 1, "start": len(t) // 3,
                                           "end": 2 * len(t) // 3, "severity": "Major", "category": "Accuracy"})
                               for i, t in enumerate(system)) + "\n", encoding="utf-8")
    request = read_run_inputs([tmp_path / "sys.txt"], [tmp_path / "ref.txt"])
    from bleu_gui.core.inputs.annotations import attach_annotations

    files, _notes = attach_annotations([spans], request.systems, ["sys"], request.context)
    configs = (family("bleu").config().__class__(tokenizer=tokenizer), family("chrf").config(),
               family("ter").config(), family("edit").config())
    run = score_run(files, request.references, RunConfig(configs, significance=None), context=request.context)
    rows = list(range(n))
    for metric in run.metrics:
        flagged = metric.flagged(rows, system)
        assert flagged is not None and len(flagged) == n
        assert flagged[0] == [], metric.name
        for line, found in zip(system, flagged):
            assert all(0 <= a <= b <= len(line) for a, b in found), (metric.name, line, found)
        assert sum(bool(f) for f in flagged) > n // 2, metric.name
    recall = error_recall(run.metrics, [s.file for s in run.systems], names=["sys"])
    for row in recall.rows:
        major = row.severities["Major"]
        assert major.errors == sum(1 for t in system if len(t) // 3 < 2 * len(t) // 3)
        assert 0 < major.seen <= major.errors and 0 in major.missed_segments
        assert 0 <= row.noise_chars <= row.flagged_chars
