"""An OpenAI-compatible endpoint that judges as the human raters did: for each translation it is asked about, it
answers with the errors a rater marked on it in an MQM file (the marked text quoted, the category as GEMBA-MQM's
schema names it, the severity), as the LLM judge's schema asks. A judge that agrees with the humans by construction,
so that what the app does with an answer — placing the quotes, scoring with MQM's weights, drawing, the desk's
suggestions, Metrics vs humans — can be checked against the humans themselves (tests/test_llm_parrot.py) and looked
at on real text; the tiny random model of the other tests quotes nothing that is in the text.

    python scripts/parrot_judge.py MQM.tsv [--port 8932] [--systems A B]    # serves http://127.0.0.1:PORT/v1
"""

from __future__ import annotations

import argparse
import http.server
import json
import sys
import threading
from collections.abc import Sequence

from bleu_gui.core.inputs.run_inputs import InputRequest, read_request
from bleu_gui.core.metrics.llm.answers import MAX_ERRORS, MQM_CATEGORIES

MODEL = "parrot"


def category(name: str) -> str:
    """A rater's category as the schema names it (a category outside GEMBA-MQM's typology is Other)."""
    if name.rstrip("!").lower() == "non-translation":
        return "Non-translation"
    return name if name in MQM_CATEGORIES else "Other"


def answers_from(path: str, systems: Sequence[str] = ()) -> dict[str, str]:
    """Each translation of the MQM file ``path`` (its systems ``systems``, or all) → the answer that quotes its first
    rater's errors (at most the schema's 8; Neutral ones left out: the schema has no such severity); an error marked
    on the source quotes the source's text, which the judge's placement finds in no candidate."""
    inputs = read_request(InputRequest(systems=(path,), systems_wanted=tuple(systems) or None))
    answers: dict[str, str] = {}
    for system in inputs.systems:
        for line, ratings in zip(system.lines, system.annotations or ()):
            if ratings is None or not ratings.raters or line in answers:
                continue
            rater = ratings.raters[0]
            errors = [{"span": e.text, "category": category(e.category),
                       "severity": e.severity.lower()}
                      for e in ratings.errors if e.rater == rater and e.severity in ("Critical", "Major", "Minor")]
            answers[line] = json.dumps({"errors": errors[:MAX_ERRORS]}, ensure_ascii=False)
    return answers


class ParrotJudge(http.server.ThreadingHTTPServer):
    """The endpoint (see the module), serving on 127.0.0.1 in a thread of its own once started."""

    daemon_threads = True

    def __init__(self, answers: dict[str, str], port: int = 0):
        super().__init__(("127.0.0.1", port), _Handler)
        self.answers = answers
        self.asked = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def start(self) -> ParrotJudge:
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self

    def answer(self, messages: list[dict[str, str]]) -> str:
        """The answer for the translation the (default) prompt ends with; no error for a text it does not know."""
        user = messages[-1]["content"]
        translation = user.rsplit("translation:\n", 1)[-1]
        return self.answers.get(translation, '{"errors": []}')


class _Handler(http.server.BaseHTTPRequestHandler):
    server: ParrotJudge

    def log_message(self, *args: object) -> None:
        return None

    def _json(self, data: object) -> None:
        body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._json({"object": "list", "data": [{"id": MODEL, "object": "model"}]})

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        self.server.asked += 1
        content = self.server.answer(request["messages"])
        self._json({"object": "chat.completion", "model": MODEL, "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}]})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mqm")
    parser.add_argument("--port", type=int, default=8932)
    parser.add_argument("--systems", nargs="*", default=[])
    args = parser.parse_args()
    judge = ParrotJudge(answers_from(args.mqm, args.systems), args.port)
    print(f"serving the raters' errors of {args.mqm} at {judge.base}", flush=True)
    judge.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
