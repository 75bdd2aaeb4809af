"""Make the Pearmut files the tests read (tests/data/pearmut/), with a real Pearmut server.

Run it with a Python >= 3.12 that has Pearmut (``pip install pearmut==1.1.6``); it needs nothing of bleu-gui:

    python3.12 scripts/make_pearmut_files.py tests/data/pearmut

What it does, as a campaign's life goes:
1. writes the run's texts (``src.txt``, ``A.txt``, ``B.txt``, ``ref.txt``: Japanese with emoji, one candidate text
   under two sources) and two campaign files over them (ESA and DA, two documents of three and one segments and a
   single-segment one, two raters each);
2. adds each with Pearmut's own ``pearmut add`` into a scratch ``PEARMUT_ROOT``, and serves Pearmut's app on
   127.0.0.1 only (uvicorn, a free port);
3. rates through the HTTP API as Pearmut's web page does (``get-next-item``, ``get-i-item``, ``log-response``
   with ``annotation``/``actions``/``item``; spans as the page counts them: UTF-16 code units, end inclusive;
   an omission on the ``[missing]`` token, whose index is the text's UTF-16 length). Rater 1 resubmits a
   document with changed ratings; rater 2's work is reset from the dashboard (``reset-campaign``) and redone;
4. keeps what Pearmut wrote: its log (``data/annotations/ID.jsonl`` → ``ID.jsonl``), the dashboard's download
   (``download-annotations`` → ``ID-download.json``), the campaign as Pearmut stored it (``ID-campaign.json``),
   and ``expected.json``: what each rating means by the rules (the latest submission of a rater wins; a reset
   voids that rater's earlier lines), written from the ratings this script made, for the tests to check against.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

SOURCE = ["It is sunny today 🌞, so let's go to the sea.", "Thank you.", "Thank you so much for everything.",
          "Hello, world.", "Where is the station?"]
REFERENCE = ["今日は晴れ🌞なので、海に行こう。", "ありがとう。", "いろいろ本当にありがとう。", "こんにちは、世界。",
             "駅はどこですか？"]
TEXTS = {
    # A's first line has two emoji before its error; its second and third lines are one text under two sources.
    "A": ["今日は晴れ🌞🌊、山に行こう。", "ありがとう。", "ありがとう。", "こんにちは、地球。", "駅はどこ？"],
    "B": ["今日は晴れです🌞。海に行きましょう。", "ありがとうございます。", "いろいろありがとうございました。",
          "こんにちは世界。", "駅はどこですか？"],
}
DOCUMENTS = [[0, 1, 2], [3], [4]]  # the campaign's documents, by line of the run

# What each rater says, per document and model: {line: {model: (score, [(text marked, severity) | "missing"])}}.
ESA_SAYS = {
    "rater1": [
        {0: {"A": (40, [("山", "major")]), "B": (90, [])}, 1: {"A": (95, []), "B": (97, [])},
         2: {"A": (35, ["missing"]), "B": (90, [])}},
        {3: {"A": (60, [("地球", "minor")]), "B": (92, [])}},
        {4: {"A": (80, []), "B": (98, [])}},
    ],
    "rater2": [
        {0: {"A": (50, [("山", "major")]), "B": (88, [])}, 1: {"A": (90, []), "B": (93, [])},
         2: {"A": (20, ["missing"]), "B": (85, [("いろいろ", "minor")])}},
        {3: {"A": (70, []), "B": (90, [])}},
        {4: {"A": (75, []), "B": (97, [])}},
    ],
}
# rater1 changes its mind on document 2 (item 1); rater2's first pass over document 1 is reset and redone.
ESA_RESUBMIT = {3: {"A": (65, [("、", "minor"), ("地球", "major")]), "B": (92, [])}}
ESA_BEFORE_RESET = {0: {"A": (10, [("晴れ", "critical")]), "B": (10, [])}, 1: {"A": (10, []), "B": (10, [])},
                    2: {"A": (10, []), "B": (10, [])}}
DA_SAYS = {
    "rater1": [{0: {"A": 45, "B": 91}, 1: {"A": 94, "B": 96}, 2: {"A": 30, "B": 88}}, {3: {"A": 62, "B": 93}},
               {4: {"A": 81, "B": 99}}],
    "rater2": [{0: {"A": 55, "B": 85}, 1: {"A": 92, "B": 94}, 2: {"A": 25, "B": 86}}, {3: {"A": 71, "B": 89}},
               {4: {"A": 77, "B": 96}}],
}


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def utf16_span(text: str, marked: str) -> tuple[int, int]:
    """The span of ``marked``'s first occurrence as Pearmut's page numbers it: UTF-16 code units, end inclusive."""
    at = text.index(marked)
    start = utf16_length(text[:at])
    return start, start + utf16_length(marked) - 1


def item(line: int) -> dict[str, object]:
    return {"src": SOURCE[line], "tgt": {model: TEXTS[model][line] for model in TEXTS}}


def campaign(campaign_id: str, protocol: str) -> dict[str, object]:
    task = [[item(line) for line in document] for document in DOCUMENTS]
    return {"campaign_id": campaign_id, "info": {"assignment": "task-based", "protocol": protocol, "seed": 7,
                                                 "users": ["rater1", "rater2"]},
            "data": [task, task]}


class Server:
    """Pearmut's app served by uvicorn on 127.0.0.1 (never on every interface, as ``pearmut run`` would)."""

    def __init__(self, root: Path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        code = ("import uvicorn; from pearmut.app import app; "
                f"uvicorn.run(app, host='127.0.0.1', port={self.port}, log_level='warning')")
        self.process = subprocess.Popen([sys.executable, "-c", code], cwd=root,
                                        env=os.environ | {"PEARMUT_ROOT": str(root)})
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("Pearmut's server did not start")

    def post(self, path: str, body: dict[str, object]) -> object:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/{path}", json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    def get(self, path: str, query: dict[str, str]) -> bytes:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/{path}?{urllib.parse.urlencode(query)}",
                                    timeout=30) as answer:
            return bytes(answer.read())

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def annotation(shown: list[dict[str, object]], says: dict[int, dict[str, object]], protocol: str) -> list[object]:
    """What the page sends for a document: per item, per model, the score and the spans (placed by text)."""
    out: list[object] = []
    for shown_item in shown:
        tgt = shown_item["tgt"]
        assert isinstance(tgt, dict)
        line = SOURCE.index(str(shown_item["src"]))
        marks: dict[str, object] = {}
        for model, text in tgt.items():
            said = says[line][model]
            if protocol == "DA":
                marks[model] = {"score": said, "error_spans": []}
                continue
            assert isinstance(said, tuple)
            score, spans = said
            error_spans = []
            for span in spans:
                if span == "missing":  # the [missing] token sits at the text's UTF-16 length
                    start = end = utf16_length(text)
                    severity = "major"
                else:
                    start, end = utf16_span(text, span[0])
                    severity = span[1]
                error_spans.append({"start_i": start, "end_i": end, "severity": severity, "category": None})
            marks[model] = {"score": score, "error_spans": error_spans}
        out.append(marks)
    return out


def submit(server: Server, campaign_id: str, user: str, answer: dict[str, object], says: dict[int, dict[str, object]],
           protocol: str) -> None:
    info, shown = answer["info"], answer["payload"]
    assert isinstance(info, dict) and isinstance(shown, list)
    now = time.time()
    payload = {"annotation": annotation(shown, says, protocol),
               "actions": [{"time": now, "action": "load"}, {"time": now + 1, "action": "submit"}], "item": shown}
    server.post("log-response", {"campaign_id": campaign_id, "user_id": user, "item_i": info["item_i"],
                                 "payload": payload})


def rate(server: Server, campaign_id: str, user: str, documents: list[dict[int, dict[str, object]]],
         protocol: str) -> None:
    for says in documents:
        answer = server.post("get-next-item", {"campaign_id": campaign_id, "user_id": user})
        assert isinstance(answer, dict)
        submit(server, campaign_id, user, answer, says, protocol)


def expected(says: dict[str, list[dict[int, dict[str, object]]]], protocol: str) -> list[dict[str, object]]:
    """The ratings in force (resubmissions and resets applied), one per rater, line and model."""
    out = []
    for user, documents in says.items():
        for document in documents:
            for line, models in document.items():
                for model, said in models.items():
                    if protocol == "DA":
                        out.append({"rater": user, "line": line, "system": model, "score": said, "spans": []})
                        continue
                    assert isinstance(said, tuple)
                    score, spans = said
                    out.append({"rater": user, "line": line, "system": model, "score": score,
                                "spans": [["", "Major"] if s == "missing" else [s[0], s[1].capitalize()]
                                          for s in spans]})
    return sorted(out, key=lambda r: (r["system"], r["line"], r["rater"]))


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/data/pearmut")
    out.mkdir(parents=True, exist_ok=True)
    for name, lines in {"src": SOURCE, "ref": REFERENCE, **TEXTS}.items():
        (out / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    root = Path(tempfile.mkdtemp(prefix="pearmut-"))
    pearmut = Path(sys.executable).with_name("pearmut")
    try:
        for campaign_id, protocol in (("esa", "ESA"), ("da", "DA")):
            given = root / f"{campaign_id}.json"
            given.write_text(json.dumps(campaign(campaign_id, protocol), ensure_ascii=False, indent=1), "utf-8")
            subprocess.run([str(pearmut), "add", str(given)], cwd=root, check=True,
                           env=os.environ | {"PEARMUT_ROOT": str(root)})
        server = Server(root)
        try:
            for user in ("rater1", "rater2"):
                if user == "rater2":  # a first pass, reset from the dashboard, then the real one
                    answer = server.post("get-next-item", {"campaign_id": "esa", "user_id": user})
                    assert isinstance(answer, dict)
                    submit(server, "esa", user, answer, ESA_BEFORE_RESET, "ESA")
                    token = json.loads((root / "data/campaigns/esa.json").read_text("utf-8"))["token"]
                    server.post("reset-campaign", {"campaign_id": "esa", "user_id": user, "token": token})
                rate(server, "esa", user, ESA_SAYS[user], "ESA")  # type: ignore[arg-type]
                rate(server, "da", user, DA_SAYS[user], "DA")  # type: ignore[arg-type]
            # rater1 goes back to document 2 (item 1) and changes its ratings, as the page's "previous" allows
            answer = server.post("get-i-item", {"campaign_id": "esa", "user_id": "rater1", "item_i": 1})
            assert isinstance(answer, dict)
            submit(server, "esa", "rater1", answer, ESA_RESUBMIT, "ESA")  # type: ignore[arg-type]
            for campaign_id in ("esa", "da"):
                download = server.get("download-annotations", {"campaign_id": campaign_id})
                (out / f"{campaign_id}-download.json").write_bytes(download)
        finally:
            server.close()
        for campaign_id in ("esa", "da"):
            shutil.copyfile(root / f"data/annotations/{campaign_id}.jsonl", out / f"{campaign_id}.jsonl")
            shutil.copyfile(root / f"data/campaigns/{campaign_id}.json", out / f"{campaign_id}-campaign.json")
        esa = {user: [dict(d) for d in documents] for user, documents in ESA_SAYS.items()}
        esa["rater1"][1] = dict(ESA_RESUBMIT)
        version = subprocess.run([sys.executable, "-c", "import importlib.metadata as m; print(m.version('pearmut'))"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        (out / "expected.json").write_text(json.dumps(
            {"pearmut": version, "esa": expected(esa, "ESA"), "da": expected(DA_SAYS, "DA")},  # type: ignore[arg-type]
            ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
