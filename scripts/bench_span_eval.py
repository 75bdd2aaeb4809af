"""How long span agreement takes at WMT's scale: 3 detectors × 13 systems × 2,000 segments, every measure, micro
and macro, per system and over all, with bootstrap intervals and the paired tests (the issue's budget: 2 s) —
beside the anchor, the reference implementation's headline alone (Perrella et al.'s ``compute``, MPP micro, one call
per detector and system) when its checkout is given, else our own measures alone, in the same run.

Two corpora: WMT24's real ESA spans (en-zh and en-hi, ../shared/data, cycled to 26,000 segments; the detectors made
from them by tests/span_cases.py's rule with three keys) — 0.3 spans a segment, as raters mark them — and seeded
random segments with 0-4 spans a side, five times denser, as a stress case.

    python scripts/bench_span_eval.py [--perrella SPAN_MT_METRICS_EVAL_CHECKOUT]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bleu_gui.core.analysis.span_agreement import Detector, marks_of, span_agreement  # noqa: E402
from bleu_gui.core.analysis.span_measures import components  # noqa: E402
from bleu_gui.core.inputs.ratings import ErrorSpan, Ratings  # noqa: E402
from bleu_gui.core.inputs.text_files import SegmentFile  # noqa: E402
from tests.span_cases import detector_from, random_corpus  # noqa: E402

WMT24 = ROOT.parent / "shared" / "data" / "esa-wmt24-en-zh-en-hi" / "wmt24_esa.jsonl"

SYSTEMS, SEGMENTS, DETECTORS = 13, 2000, 3
SEVERITY = {"major": "Major", "minor": "Minor", "critical": "Critical"}


def errors(spans, rater: str) -> tuple[ErrorSpan, ...]:
    return tuple(ErrorSpan(rater, "Accuracy", SEVERITY[s], a, b, side) for a, b, s, side in spans)


def wmt24_corpora() -> list[list]:
    """WMT24's rated segments (both pairs) cycled into 13 systems of 2,000, each with its three detectors' spans."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from span_oracles import wmt24_corpus

    rated = [(n, g) for pair in ("en-zh", "en-hi") for n, _p, g in wmt24_corpus(WMT24, pair)]
    out = []
    for s in range(SYSTEMS):
        segments = [rated[(s * SEGMENTS + i) % len(rated)] for i in range(SEGMENTS)]
        out.append([(n, [detector_from(g, n, i + 97 * d) for d in range(DETECTORS)], g)
                    for i, (n, g) in enumerate(segments)])
    return out


def random_corpora() -> list[list]:
    out = []
    for s in range(SYSTEMS):
        corpus = random_corpus(100 + s, SEGMENTS)
        others = [random_corpus(1000 * d + s, SEGMENTS) for d in range(1, DETECTORS)]
        out.append([(n, [p] + [o[i][1] for o in others], g) for i, (n, p, g) in enumerate(corpus)])
    return out


def build(corpora: list[list]) -> tuple[list[SegmentFile], list[Detector]]:
    systems, detectors = [], [[] for _ in range(DETECTORS)]
    for s, corpus in enumerate(corpora):
        lines = ["x" * n for n, _p, _g in corpus]
        ratings = tuple(Ratings(("human",), errors(g, "human")) for _n, _p, g in corpus)
        systems.append(SegmentFile(Path(f"sys{s}.txt"), lines, "utf-8", annotations=ratings))
        for d in range(DETECTORS):
            detectors[d].append([errors(p[d], "model") for _n, p, _g in corpus])
    return systems, [Detector(f"detector {d}", "metric", spans) for d, spans in enumerate(detectors)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perrella", type=Path, help="a checkout of sted19/span-mt-metrics-eval (the anchor)")
    args = parser.parse_args()
    cases = [("random, 0-4 spans a side", random_corpora)]
    if WMT24.is_file():
        cases.insert(0, ("WMT24 ESA spans", wmt24_corpora))
    else:
        print(f"WMT24's ESA file is not at {WMT24}: the real-density case is skipped")
    for name, corpora in cases:
        bench(name, *build(corpora()), args.perrella)


def bench(name: str, systems: list[SegmentFile], detectors: list[Detector], checkout: Path | None) -> None:
    spans = sum(len(r.errors) for s in systems for r in s.annotations or () if r)
    print(f"{name}: {DETECTORS} detectors × {SYSTEMS} systems × {SEGMENTS:,} segments ({spans:,} gold spans)")
    start = time.perf_counter()
    found = span_agreement(systems, detectors)
    ours = time.perf_counter() - start
    print(f"  bleu-gui span agreement, 6 measures × micro/macro, per system, intervals, paired: {ours:.2f} s "
          f"(headline F1 of the best: {found.detectors[0].overall.f1():.4f})")
    start = time.perf_counter()
    if checkout is not None:
        sys.path.insert(0, str(checkout / "src"))
        import span_mt_metrics_eval as perrella

        def as_dicts(errs, n):
            return [{"start": m.start, "end": m.end, "side": m.side, "severity": m.severity}
                    for m in marks_of(errs, n)]

        for d in detectors:
            for k, system in enumerate(systems):
                n = [len(line) for line in system.lines]
                perrella.compute([as_dicts(e, n[i]) for i, e in enumerate(d.spans[k])],
                                 [as_dicts(r.errors, n[i]) for i, r in enumerate(system.annotations or ())])
        anchor = "Perrella et al.'s compute, MPP micro only, one call per detector and system"
    else:
        for d in detectors:
            for k, system in enumerate(systems):
                for i, r in enumerate(system.annotations or ()):
                    n = len(system.lines[i])
                    components("partial", marks_of(d.spans[k][i] or (), n), marks_of(r.errors, n), n)
        anchor = "our six measures of every segment alone, no averaging or resampling (no checkout given)"
    theirs = time.perf_counter() - start
    print(f"  anchor, {anchor}: {theirs:.2f} s")
    print(f"  ratio (all of ours / the anchor): {ours / theirs:.2f}×")


if __name__ == "__main__":
    main()
