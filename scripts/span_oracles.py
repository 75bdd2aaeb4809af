"""The span-agreement oracles' own numbers on tests/span_cases.py, written to tests/data/span-oracles/expected.json
for tests/test_span_agreement.py (none of the three is a dependency: run this where their checkouts are).

    python scripts/span_oracles.py --perrella SPAN_MT_METRICS_EVAL --wmt25 WMT25_MTEVAL --towereval TOWER_EVAL

- Perrella et al.'s sted19/span-mt-metrics-eval (its ``src`` on the path; numpy and scipy): ``compute`` with
  ``measure`` EM, MP, MPP (one-to-one, optimal), severity penalty 0 and 0.5 (MPP), micro and macro;
- WMT25's official scorer, wmt-conference/wmt25-mteval ``scripts/scoring/task2/scoring_esa.py``: its
  ``get_char_f1`` (the module loaded unchanged; pandas, which only its ``main`` uses, stood in by an empty module);
- TowerEval's deep-spin/tower-eval ``tower_eval/metrics/base/error_span_detection.py``: its
  ``ErrorSpanDetectionMetric.evaluate`` (the module loaded unchanged; its package's other modules stood in).

Each producer is given the spans as its own format marks them: WMT25's omissions as ``"missing"``, TowerEval's at
the end of the text; WMT25 and TowerEval read the translation only, so they get the target-side spans; TowerEval
knows Major and Minor, so Critical is given as Major.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.span_cases import (  # noqa: E402
    HAND,
    RANDOM_SEEDS,
    Segment,
    detector_from,
    random_corpus,
    wmt24_gold,
    wmt24_latest,
)

OUT = ROOT / "tests" / "data" / "span-oracles" / "expected.json"


def load(path: Path, name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def perrella_spans(length: int, spans: list) -> list[dict[str, object]]:
    return [{"start": length if a is None else a, "end": length + 1 if b is None else b, "side": side,
             "severity": severity} for a, b, severity, side in spans]


def wmt25_errors(spans: list) -> list[dict[str, object]]:
    return [{"start": "missing", "end": "missing", "severity": severity} if a is None else
            {"start": str(a), "end": str(b), "severity": severity} for a, b, severity, side in spans if side == "target"]


def tower_line(length: int, spans: list) -> dict[str, object]:
    return {"mt": "x" * length, "annotations": [
        {"start": length if a is None else a, "end": length + 1 if b is None else b,
         "severity": "major" if severity == "critical" else severity}
        for a, b, severity, side in spans if side == "target"]}


def score(corpus: list[Segment], perrella, wmt25, tower) -> dict[str, object]:
    predicted = [perrella_spans(n, p) for n, p, _g in corpus]
    gold = [perrella_spans(n, g) for n, _p, g in corpus]
    out: dict[str, object] = {}
    for name, measure, penalty in (("exact", "EM", 0.0), ("overlap", "MP", 0.0), ("partial", "MPP", 0.0),
                                   ("partial-severity", "MPP", 0.5)):
        for averaging in ("micro", "macro"):
            got = perrella.compute(predicted, gold, measure=measure, severity_penalty=penalty, averaging=averaging)
            out[f"{name}/{averaging}"] = [got.precision, got.recall, got.f_score]
    lengths = [n for n, _p, _g in corpus]
    out["wmt25/micro"] = list(wmt25.get_char_f1(lengths, [wmt25_errors(g) for _n, _p, g in corpus],
                                                [wmt25_errors(p) for _n, p, _g in corpus], partial_credit=0.5))
    metric = tower.ErrorSpanDetectionMetric.__new__(tower.ErrorSpanDetectionMetric)
    try:
        got = metric.evaluate([tower_line(n, p) for n, p, _g in corpus], [tower_line(n, g) for n, _p, g in corpus],
                              0.5)
        out["towereval/micro"] = [got["precision"], got["recall"], got["f1"]]
    except ZeroDivisionError:  # its own answer to an empty side; ours is said in the test
        out["towereval/micro"] = "ZeroDivisionError"
    return out


def wmt24_corpus(path: Path, pair: str) -> list[Segment]:
    """WMT24's ESA ratings of ``pair`` (tests/span_cases.py reads the raw lines): each rated (system, line) a
    segment whose gold is its rater's spans and whose prediction is ``detector_from(gold, …, line)``."""
    corpus = []
    for (_system, line_id, _annotator), o in sorted(wmt24_latest(path, pair).items()):
        gold = wmt24_gold(o)
        corpus.append((len(o["tgt"]), detector_from(gold, len(o["tgt"]), line_id), gold))
    return corpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--perrella", type=Path, required=True, help="a checkout of sted19/span-mt-metrics-eval")
    parser.add_argument("--wmt25", type=Path, required=True, help="a checkout of wmt-conference/wmt25-mteval")
    parser.add_argument("--towereval", type=Path, required=True, help="a checkout of deep-spin/tower-eval")
    parser.add_argument("--wmt24-esa", type=Path, help="WMT24's wmt24_esa.jsonl (../shared/data/esa-wmt24-en-zh-en-hi)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.perrella / "src"))
    import span_mt_metrics_eval as perrella

    sys.modules.setdefault("pandas", types.ModuleType("pandas"))
    wmt25 = load(args.wmt25 / "scripts" / "scoring" / "task2" / "scoring_esa.py", "scoring_esa")
    stand_ins = {"tower_eval": {}, "tower_eval.error_span_utils": {"det_to_annotation": None,
                                                                   "tag_to_annotation": None},
                 "tower_eval.metrics": {}, "tower_eval.metrics.base": {},
                 "tower_eval.metrics.base.metrics_handler": {"Metric": type("Metric", (), {})},
                 "tower_eval.metrics.base.result_handler": {"MetricResult": type("MetricResult", (), {})},
                 "tower_eval.utils": {"load_jsonl_file": None, "read_lines": None}}
    for name, names in stand_ins.items():
        module = types.ModuleType(name)
        module.__dict__.update(names)
        sys.modules.setdefault(name, module)
    tower = load(args.towereval / "tower_eval" / "metrics" / "base" / "error_span_detection.py", "tower_esd")
    cases = {name: score(corpus, perrella, wmt25, tower) for name, corpus in HAND.items()}
    cases |= {f"random {seed}": score(random_corpus(seed), perrella, wmt25, tower) for seed in RANDOM_SEEDS}
    if args.wmt24_esa is not None:
        for pair in ("en-zh", "en-hi"):
            corpus = wmt24_corpus(args.wmt24_esa, pair)
            cases[f"wmt24 {pair}"] = score(corpus, perrella, wmt25, tower) | {"segments": len(corpus)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"made_by": "scripts/span_oracles.py", "cases": cases}, indent=1) + "\n", "utf-8")
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
