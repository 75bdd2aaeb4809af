"""Rate a campaign bleu-score wrote (--ask-humans) through a real Pearmut, as its raters' web pages do.

Run it with a Python >= 3.12 that has Pearmut (``pip install pearmut==1.1.6``); it needs nothing of bleu-gui:

    python3.12 scripts/pearmut_rate.py CAMPAIGN.json SAYS.json OUT

1. ``pearmut add CAMPAIGN.json`` into a scratch ``PEARMUT_ROOT``; Pearmut's app served on 127.0.0.1 only;
2. each rater of SAYS.json (``{"raters": {user: [document, ...]}, "resubmit": [[user, item_i, document]]}``, a
   document ``{item_id: {model: [score, [[marked text, severity] | "missing", ...]]}}``) takes their next item with
   ``get-next-item`` and submits what SAYS.json says of each item id shown (``log-response``, spans in UTF-16 code
   units, end inclusive, as the page counts); a rater's list may end before their task does (items left unrated);
   then each resubmission goes back to ``item_i`` (``get-i-item``) and submits again;
3. OUT receives Pearmut's log (``ID.jsonl``), the dashboard's download (``ID-download.json``), and the campaign as
   Pearmut stored it (``ID-campaign.json``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_pearmut_files import Server, utf16_length, utf16_span  # noqa: E402  (the same page's rules)


def _marks(shown: list[dict[str, object]], says: dict[str, dict[str, list[object]]]) -> list[object]:
    out: list[object] = []
    for item in shown:
        tgt = item["tgt"]
        assert isinstance(tgt, dict)
        said = says[str(item["item_id"])]
        marks: dict[str, object] = {}
        for model, text in tgt.items():
            score, spans = said[model]
            error_spans = []
            for span in spans:  # type: ignore[union-attr]
                if span == "missing":  # Pearmut's [missing] token: at the text's UTF-16 length
                    start = end = utf16_length(text)
                    severity = "major"
                else:
                    start, end = utf16_span(text, span[0])
                    severity = span[1]
                error_spans.append({"start_i": start, "end_i": end, "severity": severity, "category": None})
            marks[model] = {"score": score, "error_spans": error_spans}
        out.append(marks)
    return out


def _submit(server: Server, campaign_id: str, user: str, answer: dict[str, object],
            says: dict[str, dict[str, list[object]]]) -> None:
    info, shown = answer["info"], answer["payload"]
    assert isinstance(info, dict) and isinstance(shown, list)
    now = time.time()
    payload = {"annotation": _marks(shown, says),
               "actions": [{"time": now, "action": "load"}, {"time": now + 1, "action": "submit"}], "item": shown}
    server.post("log-response", {"campaign_id": campaign_id, "user_id": user, "item_i": info["item_i"],
                                 "payload": payload})


def main() -> None:
    campaign_file, says_file, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    campaign_id = json.loads(campaign_file.read_text("utf-8"))["campaign_id"]
    says = json.loads(says_file.read_text("utf-8"))
    root = Path(tempfile.mkdtemp(prefix="pearmut-"))
    try:
        subprocess.run([str(Path(sys.executable).with_name("pearmut")), "add", str(campaign_file.resolve())],
                       cwd=root, check=True, env=os.environ | {"PEARMUT_ROOT": str(root)}, capture_output=True)
        server = Server(root)
        try:
            for user, documents in says["raters"].items():
                for document in documents:
                    answer = server.post("get-next-item", {"campaign_id": campaign_id, "user_id": user})
                    assert isinstance(answer, dict)
                    _submit(server, campaign_id, user, answer, document)
            for user, item_i, document in says.get("resubmit", []):
                answer = server.post("get-i-item", {"campaign_id": campaign_id, "user_id": user, "item_i": item_i})
                assert isinstance(answer, dict)
                _submit(server, campaign_id, user, answer, document)
            (out / f"{campaign_id}-download.json").write_bytes(
                server.get("download-annotations", {"campaign_id": campaign_id}))
        finally:
            server.close()
        shutil.copyfile(root / f"data/annotations/{campaign_id}.jsonl", out / f"{campaign_id}.jsonl")
        shutil.copyfile(root / f"data/campaigns/{campaign_id}.json", out / f"{campaign_id}-campaign.json")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
