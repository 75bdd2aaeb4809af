"""A slice is a selection of rows, never a new scoring: the slice computed from the whole run's statistics equals the
same segments scored as a corpus of their own from their text — every family (BLEU, chrF, chrF++, TER, the edit
distance, MQM, an imported column), every sentence and corpus score, every paired test's p-value."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bleu_gui.core import RunConfig, Significance, score_run
from bleu_gui.core.inputs.corpus import subset_file
from bleu_gui.core.inputs.run_inputs import read_run_inputs
from bleu_gui.core.metrics.registry import family
from bleu_gui.core.run import subset_run
from bleu_gui.core.where import where_rows

from .conftest import data_set


def _same(part, alone) -> None:
    assert [m.name for m in part.metrics] == [m.name for m in alone.metrics]
    for a, b in zip(part.systems, alone.systems):
        for k, metric in enumerate(part.metrics):
            np.testing.assert_array_equal(a.results[k].stats, b.results[k].stats, err_msg=metric.name)
            np.testing.assert_array_equal(a.results[k].sentences, b.results[k].sentences, err_msg=metric.name)
            assert a.results[k].corpus == b.results[k].corpus, metric.name
    for k, metric in enumerate(part.metrics):
        x, y = part.comparison.by_metric[k].matrix, alone.comparison.by_metric[k].matrix
        np.testing.assert_array_equal(x.p_bs, y.p_bs, err_msg=metric.name)
        np.testing.assert_array_equal(x.p_ar, y.p_ar, err_msg=metric.name)


@pytest.mark.slow
@pytest.mark.parametrize("word_order", [0, 2])  # chrF, chrF++
def test_a_slice_from_the_rows_equals_its_segments_scored_alone(word_order):
    rated = data_set("formats/tsv-mqm-wmt") / "mqm_ted_ende.head588lines.tsv"
    inputs = read_run_inputs([], [rated], refs_wanted=["ref"])
    config = RunConfig((family("bleu").config(), family("chrf").config(word_order=word_order),
                        family("ter").config(), family("edit").config(), family("mqm").config()),
                       significance=Significance(200, 500))
    whole = score_run(inputs.systems, inputs.references, config, context=inputs.context)
    rows, _said = where_rows(whole, ["mqm_errors[Facebook-AI] > 0"])  # the segments a rater marked an error in
    assert 0 < len(rows) < whole.n_sentences
    part = subset_run(whole, rows, "mqm_errors[Facebook-AI] > 0")
    alone = score_run([subset_file(f, rows) for f in inputs.systems], [subset_file(r, rows) for r in inputs.references],
                      replace(config, check_alignment=False, ngram_diffs=False), names=[s.name for s in whole.systems],
                      context=inputs.context.subset(rows))
    _same(part, alone)


def test_an_imported_columns_slice_from_the_rows_equals_its_segments_scored_alone(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\nd e f\ng h i\nj k l\n", encoding="utf-8")
    systems = []
    for name, lines, scores in (("A", "a b c\nd e x\ng h i\nj y l\n", (0.5, 0.1, float("nan"), 0.9)),
                                ("B", "a b x\nd e f\ng x i\nj k l\n", (0.4, 0.7, 0.2, 0.3))):
        path = tmp_path / f"{name}.txt"
        path.write_text(lines, encoding="utf-8")
        inputs = read_run_inputs([path], [ref])
        systems.append(replace(inputs.systems[0], scores={"human": scores}))
    from bleu_gui.core.metrics.imported.config import ImportedConfig

    config = RunConfig((family("bleu").config(), ImportedConfig("human", True, "h.tsv")),
                       significance=Significance(100, 200))
    whole = score_run(systems, inputs.references, config)
    rows = [0, 2, 3]
    part = subset_run(whole, rows, "three")
    alone = score_run([subset_file(f, rows) for f in systems], [subset_file(r, rows) for r in inputs.references],
                      replace(config, check_alignment=False, ngram_diffs=False), names=[s.name for s in whole.systems])
    _same(part, alone)
