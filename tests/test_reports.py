"""Reports and exports: the HTML report, CSV/JSON of sentences, atomic writes that never touch inputs."""

import csv
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bleu_gui.cli.bleu_score import run
from bleu_gui.core import Bleu, BleuConfig, RunConfig, SegmentFile, score_run
from bleu_gui.core.errors import ExportError
from bleu_gui.core.output.exports import write_atomic
from bleu_gui.core.output.report import build_report
from bleu_gui.demo import demo_folder

from .oracles import sacre_corpus

ROOT = Path(__file__).resolve().parents[1]
DEMO = demo_folder("en")
REFS = [DEMO / "ref1.txt", DEMO / "ref2.txt"]
SYSTEMS = [DEMO / "system-a.txt", DEMO / "system-b.txt"]


def lines(path):
    return path.read_text(encoding="utf-8").splitlines()


@pytest.fixture
def report_html(tmp_path, capsys):
    out = tmp_path / "report.html"
    code = run([*map(str, REFS), "-i", *map(str, SYSTEMS), "--report", str(out), "-b"])
    capsys.readouterr()
    assert code == 0
    return out.read_text(encoding="utf-8")


def test_report_scores_equal_the_core(report_html):
    ref_lines = [lines(r) for r in REFS]
    for system in SYSTEMS:
        theirs = sacre_corpus(lines(system), ref_lines, BleuConfig())
        row = re.search(rf"<tr>(?:<td class=n>\d+</td>)?<td>(?:baseline: )?{system.name}</td><td class=n>([0-9.]+)</td>",
                        report_html)
        assert row and row.group(1) == f"{theirs.score:.2f}"
    assert "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp" in report_html
    assert "p (bootstrap)" in report_html and "p (AR)" in report_html


def test_report_highlights_a_known_sentence(report_html):
    block = report_html[report_html.index('id="s4"'):]
    block = block[:block.index("</div></div>") if "</div></div>" in block else None]
    # system-b, sentence 4: "The the the the the museum museum will reopen." against ref1 and ref2
    # "the museum will reopen" is matched whole, so its "the" and "museum" are the matched ones.
    expected = ('<span class="u">The</span> <span class="c">the</span> <span class="c">the</span> '
                '<span class="c">the</span> <span class="m">the</span> <span class="c">museum</span> '
                '<span class="m">museum</span> <span class="m">will</span> <span class="m">reopen</span>'
                '<span class="m">.</span>')
    assert expected in block
    assert 'class=m>matched' in report_html and 'class=c>clipped' in report_html  # the legend


def test_report_is_self_contained(report_html):
    assert not re.search(r"(https?:|ftp:|//[a-z]|\bsrc=|\bhref=|@import|url\()", report_html, re.I)
    assert report_html.count("<svg") >= 5 and "@media print" in report_html


def test_large_corpus_report_shows_worst_best_and_most_changed(monkeypatch):
    from bleu_gui.core.output import report

    refs = [[f"w{i} x y z q" for i in range(40)]]
    a = [f"w{i} x y" if i % 3 else f"w{i} x y z q" for i in range(40)]
    b = [f"w{i} x y z q" if i % 2 else "nothing" for i in range(40)]
    files = [SegmentFile(Path(name), lines, "utf-8") for name, lines in (("A", a), ("B", b), ("ref", refs[0]))]
    scored = score_run(files[:2], files[2:], RunConfig((BleuConfig(),), significance=None))
    monkeypatch.setattr(report, "MAX_FULL", 10)
    html = build_report(scored, top=4)
    assert "more than 10: the report shows the 4 worst, the 4 best and the 4 most changed only" in html
    assert html.count("<div class=sent") == 12
    # The worst sentences of A are the ones it shortened to "w x y" (i % 3 != 0); one of them is first.
    worst = re.search(r'id="s(\d+)"', html[html.index("lowest-scoring"):]).group(1)
    assert (int(worst) - 1) % 3 != 0


def test_sentences_csv_and_json_round_trip(tmp_path, capsys):
    out_csv, out_json = tmp_path / "s.csv", tmp_path / "s.json"
    assert run([*map(str, REFS), "-i", *map(str, SYSTEMS), "--export-sentences", str(out_csv), "-b"]) == 0
    assert run([*map(str, REFS), "-i", *map(str, SYSTEMS), "--export-sentences", str(out_json), "-b"]) == 0
    capsys.readouterr()
    ev = Bleu([lines(r) for r in REFS])
    stats = [ev.statistics(lines(s)) for s in SYSTEMS]
    scores = [ev.sentence_rows(st).score for st in stats]
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert len(rows) == len(data["sentences"]) == 12 and "nrefs:2" in data["metrics"][0]["signature"]
    for i, (row, obj) in enumerate(zip(rows, data["sentences"])):
        for s, system in enumerate(SYSTEMS):
            n = system.name
            assert float(row[f"{n}:bleu"]) == obj[f"{n}:bleu"] == pytest.approx(scores[s][i], abs=1e-12)
            assert int(row[f"{n}:bleu:correct_1"]) == obj[f"{n}:bleu:correct_1"] == stats[s][i, 2]
            assert int(row[f"{n}:bleu:total_4"]) == obj[f"{n}:bleu:total_4"] == stats[s][i, 9]
        assert float(row["delta_bleu:system-b.txt-system-a.txt"]) == pytest.approx(scores[1][i] - scores[0][i], abs=1e-12)
        assert row["loo_bleu"] != ""


def test_export_over_an_input_file_is_refused(tmp_path, capsys):
    victim = tmp_path / "hyp.txt"
    shutil.copy(SYSTEMS[0], victim)
    before = victim.read_bytes()
    code = run([str(REFS[0]), "-i", str(victim), "--report", str(victim)])
    _, err = capsys.readouterr()
    assert code == 2 and "refusing to overwrite an input file" in err
    assert victim.read_bytes() == before
    with pytest.raises(ExportError, match="refusing to overwrite an input file"):
        write_atomic(tmp_path / "." / "hyp.txt", "x", protected=[victim])


def test_unwritable_target_keeps_the_previous_file(tmp_path, monkeypatch):
    target = tmp_path / "report.html"
    target.write_text("previous", encoding="utf-8")

    def disk_full(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(ExportError, match=r"report.html: cannot write \(No space left on device\)"):
        write_atomic(target, "new content")
    assert target.read_text(encoding="utf-8") == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary file left behind
    with pytest.raises(ExportError, match="no such folder"):
        write_atomic(tmp_path / "missing" / "r.html", "x")


def test_unwritable_target_from_the_command_line(tmp_path, capsys):
    code = run([str(REFS[0]), "-i", str(SYSTEMS[0]), "--export-sentences", str(tmp_path / "nope" / "s.csv")])
    _, err = capsys.readouterr()
    assert code == 2 and "no such folder" in err and "Traceback" not in err


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian package chromium)")
def test_report_renders_in_headless_chromium(report_html, tmp_path):
    page = tmp_path / "report.html"
    page.write_text(report_html, encoding="utf-8")
    shot = tmp_path / "report.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run",
                    f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,1800",
                    f"--screenshot={shot}", page.as_uri()], check=True, capture_output=True, timeout=120)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    keep = os.environ.get("BLEU_GUI_SCREENSHOT_DIR")
    if keep:
        shutil.copy(shot, Path(keep) / "report-chromium.png")


def test_every_export_target_is_checked_before_anything_is_written(tmp_path, capsys):
    csv_out = tmp_path / "s.csv"
    code = run([*map(str, REFS), "-i", *map(str, SYSTEMS), "--export-sentences", str(csv_out),
                "--report", str(tmp_path / "missing" / "r.html"), "-b"])
    assert code == 2 and "no such folder" in capsys.readouterr().err
    assert not csv_out.exists()  # nothing half-written
    same = tmp_path / "both.json"
    code = run([*map(str, REFS), "-i", *map(str, SYSTEMS), "--export-sentences", str(same), "--report", str(same)])
    assert code == 2 and "two exports would write the same file" in capsys.readouterr().err
    assert not same.exists()


def test_a_hard_link_to_an_input_is_refused(tmp_path, capsys):
    victim = tmp_path / "hyp.txt"
    shutil.copy(SYSTEMS[0], victim)
    link = tmp_path / "report.html"
    os.link(victim, link)
    before = victim.read_bytes()
    code = run([*map(str, REFS), "-i", str(victim), "--report", str(link)])
    assert code == 2 and "refusing to overwrite an input file" in capsys.readouterr().err
    assert victim.read_bytes() == before


def test_the_command_line_report_covers_every_system_against_the_baseline(tmp_path, capsys):
    third = tmp_path / "system-c.txt"
    third.write_text("\n".join(line.lower() for line in lines(SYSTEMS[1])) + "\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert run([*map(str, REFS), "-i", *map(str, SYSTEMS), str(third), "--report", str(out), "-b"]) == 0
    capsys.readouterr()
    html = out.read_text(encoding="utf-8")
    assert "Pairwise sections compare system-b.txt, system-c.txt (B) with the baseline system-a.txt (A)" in html
    assert "BLEU B (system-b.txt)" in html and "BLEU B (system-c.txt)" in html


def test_score_bands_count_as_numpys_histogram_with_the_last_band_closed():
    import numpy as np
    from hypothesis import given
    from hypothesis import strategies as st

    from bleu_gui.core.analysis.orders import score_bands

    # By hand: 10 opens the second band, 100 closes the last, NaN is left out.
    assert score_bands(np.array([0.0, 9.999, 10.0, 99.9, 100.0, np.nan, 55.0])).tolist() == [2, 1, 0, 0, 0, 1, 0, 0,
                                                                                              0, 2]

    @given(st.lists(st.one_of(st.floats(0, 100), st.sampled_from([10.0, 20.0, 90.0, 100.0, float("nan")]))))
    def same_as_numpy(values):
        scores = np.array(values, np.float64)
        oracle, _ = np.histogram(scores[np.isfinite(scores)], bins=np.linspace(0, 100, 11))
        assert score_bands(scores).tolist() == oracle.tolist()

    same_as_numpy()


def test_a_delta_interval_keeps_the_metrics_decimals():
    from bleu_gui.core.output.svg import delta_chart, interval_text

    # COMET's differences are thousandths: two decimals said "-0.00 to 0.00".
    assert interval_text(-0.00123, 0.00346, 4) == "95%: -0.0012 to 0.0035"
    assert interval_text(-1.234, 2.346) == "95%: -1.23 to 2.35"  # BLEU's
    deltas = [(-1) ** k * 0.0001 * k for k in range(200)]
    assert "95%: -0.0" in delta_chart(deltas, 0.5, 4) and "95%: -0.00 to" not in delta_chart(deltas, 0.5, 4)


def test_the_report_shows_a_metrics_own_decimals_and_every_pairs_p_value(tmp_path, capsys):
    scores = tmp_path / "comet.tsv"
    a = [0.1812, 0.1806, 0.1811, 0.1807, 0.1809, 0.1810]
    b = [0.1808, 0.1807, 0.1809, 0.1806, 0.1808, 0.1810]
    rows = [f"{name}\t{k + 1}\t{v}" for name, vals in (("system-a.txt", a), ("system-b.txt", b), ("system-c.txt", b))
            for k, v in enumerate(vals)]
    hyps = [tmp_path / "system-a.txt", tmp_path / "system-b.txt", tmp_path / "system-c.txt"]
    for path in hyps:
        path.write_text("\n".join(lines(SYSTEMS[0])[:6]) + "\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("\n".join(lines(REFS[0])[:6]) + "\n", encoding="utf-8")
    scores.write_text("system\tsegment\tCOMET\n" + "\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "report.html"
    code = run([str(ref), "-i", *map(str, hyps), "--scores", str(scores), "-m", "COMET", "--all-pairs", "--report",
                str(out)])
    assert code == 0, capsys.readouterr().err
    html = out.read_text(encoding="utf-8")
    mean_a, mean_b = sum(a) / 6, sum(b) / 6
    assert f"{mean_a:.4f}" in html and f"{mean_b:.4f}" in html and f"{mean_b - mean_a:+.4f}" in html
    assert "every pair's p-value, best system first" in html
    matrix = html[html.index("every pair's p-value"):].split("</table>")[0]
    assert matrix.count("</th><td>") == 3 and matrix.count("<td class=n>·</td>") == 3  # a row a system
