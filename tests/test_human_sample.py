"""How many segments a campaign needs: the bootstrap's answer against the normal approximation's, worked by hand —
a paired test at alpha 0.05 reaches 80% power at n = ((z(0.975) + z(0.8)) · sd / mean)² — on differences whose
mean and sd are exactly what the formula is given; and the samples are what they say."""

from statistics import NormalDist

import numpy as np
import pytest

from bleu_gui.core.analysis.human_sample import SIZES, document_rows, quantile_rows, random_rows, segments_needed

Z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)  # 1.95996 + 0.84162


def _differences(needed: float, n: int = 4000) -> np.ndarray:
    """Differences whose mean and sd give the normal approximation's ``needed`` exactly (standard normal quantiles,
    rescaled)."""
    z = np.array([NormalDist().inv_cdf((k + 0.5) / n) for k in range(n)])
    z = (z - z.mean()) / z.std(ddof=1)
    effect = Z / np.sqrt(needed)  # mean / sd
    return effect + z


# Each n* lies well inside a gap between two sizes tried, so the bootstrap's noise cannot move the answer.
@pytest.mark.parametrize(("needed", "answer"), [(35, 40), (170, 200), (1250, 1500)])
def test_the_segments_needed_are_the_normal_approximations(needed, answer):
    d = _differences(needed)
    assert min(s for s in SIZES if s >= needed) == answer
    assert segments_needed(d, np.zeros_like(d), seed=0) == answer
    assert segments_needed(np.zeros_like(d), d, seed=0) == answer  # either direction


def test_systems_the_metric_sees_as_equal_need_more_than_any_campaign():
    d = _differences(1e9)
    assert segments_needed(d, np.zeros_like(d), seed=0) is None
    assert segments_needed(np.ones(50), np.ones(50), seed=0) is None
    assert segments_needed(_differences(1250), np.zeros(4000), seed=0, most=1000) is None


def test_samples_are_seeded_and_what_they_say():
    rows = list(range(100))
    assert random_rows(rows, 10, 3) == random_rows(rows, 10, 3) and len(set(random_rows(rows, 10, 3))) == 10
    assert random_rows(rows, 10, 3) == sorted(random_rows(rows, 10, 3))
    docs = [f"d{r // 7}" for r in rows]  # documents of 7 segments (the last of 2)
    picked = document_rows(rows, docs, 20, 1)
    assert len(picked) >= 20 and all(docs.count(docs[r]) == sum(docs[p] == docs[r] for p in picked) for r in picked)
    scores = [float(r) for r in rows]
    stratified = quantile_rows(rows, scores, 10, 2)
    assert len(stratified) == 10 and [sum(20 * b <= r < 20 * (b + 1) for r in stratified) for b in range(5)] == [2] * 5
