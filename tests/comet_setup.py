"""What the COMET tests share: the WMT22 en-ja lines and the cases they score, what unbabel-comet's own predict is
asked of the tiny checkpoints (the oracle; conftest.py's ``built`` runs it once per test process), and the helpers
that bind a COMET metric or point the window at a model."""

import os
from pathlib import Path

import pytest

from bleu_gui.core.analysis.erasure import erasure_texts
from bleu_gui.core.inputs.text_files import SegmentFile
from bleu_gui.core.metrics.comet.config import CometConfig
from bleu_gui.core.metrics.registry import bind
from tests.conftest import data_set


@pytest.fixture(autouse=True)
def fresh_user_cache(monkeypatch, comet_user_cache):
    """conftest's, changed for these tests: one user cache folder (and so one environment) for every COMET test of the
    process, so that a test takes the worker an earlier one left idle, as the window's next run does (starting one
    costs 5-12 s). No score carries over: every test names a COMET cache of its own (``comet()``, ``--comet-cache``);
    the tiny models are folders, so Hugging Face's cache in this folder is never written."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(comet_user_cache))


# The tiny checkpoints (scripts/tiny_comet.py), then unbabel-comet's own API on them: the oracle. One process does both
# (importing COMET costs 40-100 s on these machines): each model is loaded once and each of its requests' items
# predicted alone.
BUILD_AND_ORACLE = r"""
import json, runpy, sys
script, out, texts = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.argv = [script, out, "--kind", "regression", "referenceless", "xcomet", "--text", *texts]
runpy.run_path(script, run_name="__main__")
from comet import load_from_checkpoint
found = {}
for asked in json.load(sys.stdin):
    model = load_from_checkpoint(asked["checkpoint"])
    for name, (items, batch_size) in asked["requests"].items():
        out = model.predict(items, batch_size=batch_size, gpus=0, progress_bar=False)
        metadata = out.get("metadata") if hasattr(out, "get") else None
        spans = metadata.get("error_spans") if metadata else None
        found[name] = {"scores": out.scores, "spans": spans}
print(json.dumps(found))
"""


def lines(path: Path, n: int) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[:n]


def en_ja_lines() -> dict[str, list[str]]:
    d = data_set("wmt22-en-ja")
    return {name: lines(d / f"{name}.txt", 24) for name in ("src", "ref1", "sys1", "sys2")}


@pytest.fixture(scope="module")
def en_ja():
    """24 segments of WMT22 en-ja: source, reference, two systems."""
    return en_ja_lines()


def items(src, hyp, ref=None):
    """What COMET is given of a system's lines (no reference for a reference-free model)."""
    return [{"src": s, "mt": h, **({} if ref is None else {"ref": ref[i]})} for i, (s, h) in enumerate(zip(src, hyp))]


def three_references():
    """10 segments of WMT21 en-de with its three references: source, system, [references]."""
    d = data_set("wmt21-en-de-3ref")
    return lines(d / "src.txt", 10), lines(d / "sys1.txt", 10), [lines(d / f"ref{k}.txt", 10) for k in (1, 2, 3)]


KINDS = ("regression", "referenceless", "xcomet")
ZH_ERASED = 3  # the segment of WMT22 zh-en whose source the erasure tests split: a space inside its Chinese


def zh_en_lines() -> dict[str, list[str]]:
    """The first segments of WMT22 zh-en: source, a reference, a system."""
    d = data_set("wmt22-zh-en-2ref")
    return {name: lines(d / f"{name}.txt", ZH_ERASED + 1) for name in ("src", "ref1", "sys1")}


def erasure_cases() -> dict[str, tuple[str, str, str, object]]:
    """Segments whose every word is erased (source, candidate, reference, the word splitting): a German one with an
    emoji and a combining mark, a Russian one, a word of one character, a one-word candidate (erased: empty), and —
    with the shared data — a Japanese one split by sacreBLEU's ja-mecab."""
    from bleu_gui.core.metrics.sacre_tokenizers import load_tokenizer

    cases: dict[str, tuple[str, str, str, object]] = {
        "German": ("Good morning 👋, café at eight.", "Guten Morgen 👋, Cafe\u0301 um acht.",
                   "Guten Morgen 👋, Café um acht Uhr.", None),
        "Russian": ("The cat sleeps on a mat.", "Кошка спит на коврике и я.", "Кошка спит на коврике.", None),
        "one word": ("Yes.", "Ja", "Ja.", None),
    }
    try:
        ja = en_ja_lines()
    except pytest.skip.Exception:
        return cases
    cases["Japanese"] = (ja["src"][3], ja["sys1"][3], ja["ref1"][3], load_tokenizer("ja-mecab"))
    return cases


WHATIF = 2  # the segment of en_ja's sys1 the what-if tests edit
TYPED = "ですね！ほかにもあり"  # what they type after its text, key by key


def whatif_texts(hyp) -> dict[str, str]:
    """The texts the what-if tests make of segment WHATIF: its text with the first typed key, and with all of them."""
    return {"one key": hyp[WHATIF] + TYPED[0], "all keys": hyp[WHATIF] + TYPED}


def oracle_requests(out: Path) -> list[dict]:
    """What the oracle predicts, by name: each kind's of en_ja's sys1 in batches of 16, the regression model's also in
    batches of 4, of each of three references alone, of the what-if tests' edits and of erasure's texts (and of every
    word of sys2 left out, by ja-mecab)."""
    asked: dict[str, dict] = {kind: {} for kind in KINDS}
    try:  # the tests that need the shared data skip without it
        src, hyp, ref = (en_ja_lines()[name] for name in ("src", "sys1", "ref1"))
    except pytest.skip.Exception:
        pass
    else:
        for kind in KINDS:
            asked[kind][kind] = (items(src, hyp, None if kind == "referenceless" else ref), 16)
        asked["regression"]["regression, batches of 4"] = (items(src, hyp, ref), 4)
        asked["xcomet"]["xcomet without a reference"] = (items(src, hyp), 16)  # unbabel-comet's items without "ref"
        from bleu_gui.core.metrics.sacre_tokenizers import load_tokenizer

        ja = load_tokenizer("ja-mecab")
        other = en_ja_lines()["sys2"]
        asked["regression"]["corpus erasure: sys2"] = (
            [{"src": src[i], "mt": t, "ref": ref[i]} for i in range(len(other)) for t in erasure_texts(other[i], ja)[1]],
            16)
        for name, text in whatif_texts(hyp).items():
            asked["regression"][f"what-if: {name}"] = ([{"src": src[WHATIF], "mt": text, "ref": ref[WHATIF]}], 16)
    for name, (src_line, text, ref_line, tokenize) in erasure_cases().items():
        _spans, texts = erasure_texts(text, tokenize)
        asked["regression"][f"erasure: {name}"] = ([{"src": src_line, "mt": t, "ref": ref_line} for t in texts], 16)
    try:
        zh = zh_en_lines()
    except pytest.skip.Exception:
        pass
    else:
        from bleu_gui.core.metrics.sacre_tokenizers import load_tokenizer

        # A Chinese source's words (sacreBLEU's zh: one a character), each left out: by the regression model (with its
        # reference) of the line with a space inside, by the reference-free one of the line before it. Asked as the
        # worker asks: the run's segments first, then the erased texts (the whole one is in the cache by then), so
        # that the batches are the same (a random model's scores move by 1e-6 with what a batch pads to).
        for kind, i in (("regression", ZH_ERASED), ("referenceless", ZH_ERASED - 1)):
            ref = zh["ref1"] if kind == "regression" else None
            asked[kind][f"zh-en run by {kind}"] = (items(zh["src"], zh["sys1"], ref), 16)
            _spans, texts = erasure_texts(zh["src"][i], load_tokenizer("zh"))
            asked[kind][f"source erasure by {kind}: Chinese"] = (
                [{"src": t, "mt": zh["sys1"][i], **({"ref": ref[i]} if ref else {})} for t in texts[1:]], 16)
    try:
        src, hyp, refs = three_references()
    except pytest.skip.Exception:
        pass
    else:
        for k, ref in enumerate(refs, 1):
            asked["regression"][f"reference {k} of 3"] = (items(src, hyp, ref), 16)
    return [{"checkpoint": str(out / kind / "checkpoints" / "model.ckpt"), "requests": requests}
            for kind, requests in asked.items() if requests]


def comet(model: Path, python: str, references, source, tmp_path, **settings):
    config = CometConfig(model=str(model), python=python, cache=str(tmp_path / "comet.sqlite"), **settings)
    return bind(config, references, None, None, source)


def system(lines_, name="sys.txt"):
    return SegmentFile(Path(name), list(lines_), "utf-8")


def comet_panel(window, model: Path, python: str, cache: Path) -> None:
    group = window.settings_panel.group("comet")
    group.setChecked(True)
    for name, value in (("model", str(model)), ("python", python), ("cache", str(cache))):
        group.fields[name].set(value)
        group.fields[name].widget.editingFinished.emit()


def worker_processes() -> list[int]:
    """The COMET workers this test process started (Linux: their command lines name the worker's file)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            parent = next((line.split()[1] for line in status.splitlines() if line.startswith("PPid:")), "")
            if parent == str(os.getpid()) and b"comet_worker.py" in command:
                found.append(int(entry.name))
    return found


def write_en_ja(en_ja, tmp_path):
    for name in ("src", "ref1", "sys1", "sys2"):
        (tmp_path / f"{name}.txt").write_text("\n".join(en_ja[name]) + "\n", encoding="utf-8")




def requests_sent(monkeypatch) -> list[tuple[str, int]]:
    """The op and the worker's process id of every request sent to a COMET worker from now on."""
    from bleu_gui.core.metrics.comet import worker

    sent: list[tuple[str, int]] = []
    request = worker.CometWorker.request

    def recorded(self, message, *args, **kwargs):
        sent.append((message["op"], self.pid))
        return request(self, message, *args, **kwargs)

    monkeypatch.setattr(worker.CometWorker, "request", recorded)
    return sent
