"""Benchmark: a workbook of 100,000 rows × 4 columns (source, reference, two engines; WMT17 en-de lines repeated)
read as a run, beside the same table as TSV read by the same reader and beside python-calamine reading the sheet
alone (the anchor: the least any reader of the file must do), in the same run. The limit the issue names: under
3 s to the run's inputs. Median of ``--runs``; asserts the inputs are the same.

    python scripts/bench_workbooks.py [--rows 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sacrebleu-wmt17-en-de"


def make(folder: Path, rows: int) -> tuple[Path, Path]:
    import xlsxwriter

    ref = (DATA / "ref1.txt").read_text(encoding="utf-8").splitlines()
    a = (DATA / "sys1.txt").read_text(encoding="utf-8").splitlines()
    b = (DATA / "sys2.txt").read_text(encoding="utf-8").splitlines()
    header = ["source", "reference", "engine_a", "engine_b"]
    table = [[f"segment {i + 1}", ref[i % len(ref)], a[i % len(a)], b[i % len(b)]] for i in range(rows)]
    xlsx = folder / "eval.xlsx"
    book = xlsxwriter.Workbook(str(xlsx), {"constant_memory": True})
    sheet = book.add_worksheet("eval")
    sheet.write_row(0, 0, header)
    for r, row in enumerate(table, 1):
        sheet.write_row(r, 0, row)
    book.close()
    tsv = folder / "eval.tsv"
    with tsv.open("w", encoding="utf-8", newline="") as fh:  # quoted as spreadsheets write a TSV
        csv.writer(fh, delimiter="\t", lineterminator="\n").writerows([header, *table])
    return xlsx, tsv


def read(path: Path) -> list[list[str]]:
    from bleu_gui.core.inputs.format_table import ReadOptions
    from bleu_gui.core.inputs.run_inputs import read_run_inputs

    inputs = read_run_inputs([], [path], options=ReadOptions(columns={"candidate": "engine_a,engine_b"}))
    return [s.lines for s in inputs.systems] + [r.lines for r in inputs.references]


def calamine_only(path: Path) -> int:
    from python_calamine import CalamineWorkbook

    return len(CalamineWorkbook.from_path(str(path)).get_sheet_by_index(0).to_python())


def timed(work, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    if not DATA.is_dir():
        print(f"bench_workbooks: skipped: {DATA} is not here (../shared/data is absent)")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        xlsx, tsv = make(Path(folder), args.rows)
        ours_t, ours = timed(lambda: read(xlsx), args.runs)
        tsv_t, from_tsv = timed(lambda: read(tsv), args.runs)
        cal_t, _ = timed(lambda: calamine_only(xlsx), args.runs)
        assert ours == from_tsv, "the workbook and the TSV read differently"
        size = xlsx.stat().st_size / 1e6
    print(f"{args.rows:,} rows x 4 columns ({size:.1f} MB xlsx); median of {args.runs} runs, same inputs as the TSV")
    print(f"  workbook read as a run's inputs      {ours_t:6.2f} s")
    print(f"  the same table as TSV                {tsv_t:6.2f} s   ratio {ours_t / tsv_t:5.2f}x")
    print(f"  anchor: python-calamine, sheet only  {cal_t:6.2f} s   ratio {ours_t / cal_t:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
