"""Trust round 6, data loss: several processes on one cache, a program appending to a review while the desk writes,
a damaged cache row. Real processes, every row counted; each case failed before its fix (rows lost, a cache given up
for a whole run, a TypeError from a row)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap

from bleu_gui.core.inputs.review_rows import rows_in_force
from bleu_gui.core.metrics.comet.cache import Cached, ScoreCache, item_key
from bleu_gui.core.output.review_file import Mark, Review

from .conftest import ROOT

WRITERS = 4
ROWS = 300  # each writer's, one commit a row: as the judge keeps each answer as it arrives

CACHE_WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from bleu_gui.core.metrics.comet.cache import Cached, ScoreCache
    from bleu_gui.core.metrics.llm.cache import AnswerCache
    kind, path, who, rows = sys.argv[1], Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    print("ready", flush=True)
    sys.stdin.readline()  # "go": every writer starts at once
    cache = AnswerCache(path) if kind == "llm" else ScoreCache(path)
    for k in range(rows):
        key = f"{who}:{k}".encode()
        if kind == "llm":
            cache.put(key, '{"errors": []}', "model")
        else:
            cache.put([(key, Cached(0.5, None, 10, "sig"))])
    print(cache.problem or "kept", flush=True)
""")


def _writers_at_once(tmp_path, kind: str) -> tuple[list[str], int]:
    path = tmp_path / "cache.sqlite"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    writers = [subprocess.Popen([sys.executable, "-c", CACHE_WRITER, kind, str(path), f"w{i}", str(ROWS)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
               for i in range(WRITERS)]
    for w in writers:
        assert w.stdout is not None and w.stdout.readline().strip() == "ready"
    for w in writers:
        assert w.stdin is not None
        w.stdin.write("go\n")
        w.stdin.flush()
    said = [w.communicate()[0].strip() for w in writers]
    assert [w.returncode for w in writers] == [0] * WRITERS
    table = "answers" if kind == "llm" else "scores"
    with sqlite3.connect(path) as db:
        kept = int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    return said, kept


def test_four_judges_on_one_answer_cache_keep_every_answer(tmp_path):
    said, kept = _writers_at_once(tmp_path, "llm")
    assert said == ["kept"] * WRITERS  # none gave the cache up
    assert kept == WRITERS * ROWS


def test_four_comet_runs_on_one_score_cache_keep_every_score(tmp_path):
    said, kept = _writers_at_once(tmp_path, "comet")
    assert said == ["kept"] * WRITERS
    assert kept == WRITERS * ROWS


APPENDER = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    path, rows = Path(sys.argv[1]), int(sys.argv[2])
    for k in range(rows):
        with path.open("a", encoding="utf-8") as out:  # another program: no lock, a whole line a write
            out.write(json.dumps({"system": "hyp.txt", "segment": 1 + k % 5, "rater": "tool", "severity": "Minor",
                                  "category": "Style", "comment": f"appended {k}"}) + "\\n")
    print("done", flush=True)
""")


def test_a_program_appending_while_the_desk_writes_loses_no_row_of_either(tmp_path):
    path = tmp_path / "review.jsonl"
    review = Review.open(path, "ana", "mqm-core")
    appended = 150
    with subprocess.Popen([sys.executable, "-c", APPENDER, str(path), str(appended)], stdout=subprocess.PIPE,
                          text=True) as other:
        k = 0
        while other.poll() is None or k < 20:  # the desk writes (adds, undoes) until the other program is done
            review.add(Mark("hyp.txt", 1 + k % 5, "Major", "Accuracy/Mistranslation", 0, 1 + k % 3,
                            comment=f"desk {k}"))
            if k % 4 == 3:
                review.undo()
            k += 1
        assert other.returncode == 0
    rows = [(n, json.loads(line)) for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if line]
    in_force = [row for _n, row in rows_in_force(rows)]
    assert {r["comment"] for r in in_force if r["rater"] == "tool"} == {f"appended {j}" for j in range(appended)}
    mine = {m.comment for m in review.state.marks}
    assert {r["comment"] for r in in_force if r["rater"] == "ana"} == mine and len(mine) == k - k // 4
    assert {m.comment for m in Review.open(path, "ana", "mqm-core").state.marks} == mine


def test_a_damaged_cache_row_is_scored_again_said_once_never_raised(tmp_path):
    path = tmp_path / "comet.sqlite"
    model = ("0" * 64, "2.2.7", "32")
    keys = [item_key(model, "src", f"mt {k}", "ref") for k in range(6)]
    cache = ScoreCache(path)
    cache.put([(keys[0], Cached(0.5, ({"text": "x", "severity": "minor"},), 10, "sig"))])
    cache.close()
    with sqlite3.connect(path) as db:  # rows another program, or a damaged disk, left
        db.executemany("INSERT INTO scores VALUES (?, ?, ?, ?, ?)", [
            (keys[1], 0.5, "null", 10, "sig"), (keys[2], 0.5, "5", 10, "sig"),
            (keys[3], 0.5, "[" * 5000 + "]" * 5000, 10, "sig"), (keys[4], "high", None, 10, "sig"),
            (keys[5], 0.5, None, "many", "sig")])
    again = ScoreCache(path)
    found = again.get(keys)
    assert list(found) == [keys[0]] and found[keys[0]].spans == ({"text": "x", "severity": "minor"},)
    assert again.damaged == 5 and again.problem is None  # the cache is still used
    assert again.damage is not None and "5 rows of the cache" in again.damage


class _BusyTwice:
    """A connection that another process holds locked for two statements, then lets go."""

    def __init__(self, db: sqlite3.Connection):
        self.db, self.refused = db, 0

    def executemany(self, *args):
        if self.refused < 2:
            self.refused += 1
            raise sqlite3.OperationalError("database is locked")
        return self.db.executemany(*args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def test_a_cache_that_is_merely_busy_is_waited_for_never_given_up(tmp_path):
    from bleu_gui.core.metrics.llm.cache import AnswerCache

    cache = AnswerCache(tmp_path / "answers.sqlite")
    db = cache.connection()
    assert db is not None and db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    busy = _BusyTwice(db)
    cache._db = busy  # type: ignore[assignment]
    cache.put(b"k", '{"errors": []}', "model")
    assert busy.refused == 2 and cache.problem is None and cache.get([b"k"]) == {b"k": '{"errors": []}'}
