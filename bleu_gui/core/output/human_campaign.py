"""Ask the humans: segments chosen from a run written as a Pearmut campaign, with a mapping file beside it.

The campaign is what ``pearmut add`` accepts (tried with Pearmut 1.1.6): ``campaign_id``, ``info`` (task-based
assignment, the protocol, the raters' ids, the seed) and ``data`` — one task per rater, a task a list of
documents, a document a list of items ``{"src", "tgt": {system: text}, "item_id"}``. Pearmut keeps any key of an
item in its log, so each rating comes back with its ``item_id`` (:mod:`..inputs.campaign_ids`: a digest of the run's
source and the segment's line) and is placed by it, never by matching texts. The mapping file (``NAME.bleu-gui.json``
beside ``NAME.json``) says which files the key and each system name stand for (their paths and the SHA-256 of their
segments), which lines were asked, how they were chosen, and the estimate of the work.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..analysis.scorecard import word_count
from ..errors import InputError, term
from ..inputs.campaign_ids import ID_PREFIX, PROTOCOLS, WORDS_PER_HOUR, item_id, lines_digest, source_key
from ..json_text import strict_dumps
from ..run.results import Run
from .exports import check_target, write_atomic
from .review_file import default_typology


def run_key(run: Run) -> str:
    """The KEY of the run's item ids (:mod:`..inputs.campaign_ids`); a campaign shows the raters the source, so the
    run must have one."""
    if run.context.source is None:
        raise InputError(f"a campaign shows the raters the source: give it with {term('source')}")
    return source_key(run.context.source.lines)


@dataclass(frozen=True)
class CampaignAsk:
    """What the campaign asks: the protocol (``esa``, ``mqm``, ``da``), the systems by name (empty: all), how many
    raters rate each item, how many documents one rater's task holds (None: all of them), whether documents are
    kept whole, the seed (Pearmut's order of systems in an item), the id (default: the file's name) and the words
    a rater reads in an hour (the estimate)."""

    protocol: str = "esa"
    systems: tuple[str, ...] = ()
    raters: int = 1
    per_rater: int | None = None
    documents: bool = False
    seed: int = 0
    campaign_id: str = ""
    words_per_hour: float = WORDS_PER_HOUR
    chosen_by: str = ""  # how the segments were chosen, in words (the mapping file and the screen say it)

    def checked(self) -> CampaignAsk:
        """Itself, or ValueError: the command's and the window's fields take only valid values."""
        if (self.protocol not in PROTOCOLS or self.raters < 1 or (self.per_rater is not None and self.per_rater < 1)
                or not (self.words_per_hour > 0 and math.isfinite(self.words_per_hour))):
            raise ValueError(f"not a campaign to ask: {self}")
        return self


@dataclass(frozen=True)
class Estimate:
    """The work a campaign asks: segments, systems, ratings (segments × systems × raters), the source's words a
    rater reads (each translation counted apart, as raters read them), and hours at ``words_per_hour``."""

    segments: int
    systems: int
    raters_per_item: int
    ratings: int
    source_words: int
    words_per_hour: float

    @property
    def hours(self) -> float:
        return self.source_words / self.words_per_hour


@dataclass(frozen=True)
class CampaignPlan:
    """A campaign laid out: the systems (run indices), the documents (each a list of 0-based rows), and each rater's
    task (indices into the documents)."""

    ask: CampaignAsk
    campaign_id: str
    systems: tuple[int, ...]
    documents: tuple[tuple[int, ...], ...]
    tasks: tuple[tuple[int, ...], ...]
    key: str
    estimate: Estimate

    @property
    def rows(self) -> list[int]:
        return [row for doc in self.documents for row in doc]

    @property
    def raters(self) -> list[str]:
        width = max(2, len(str(len(self.tasks))))
        return [f"rater{k + 1:0{width}d}" for k in range(len(self.tasks))]


def system_indices(run: Run, names: Sequence[str]) -> tuple[int, ...]:
    """The run's indices of the systems ``names`` (all when empty); InputError names one the run has not."""
    known = [s.name for s in run.systems]
    if not names:
        return tuple(range(len(known)))
    missing = [n for n in names if n not in known]
    if missing:
        raise InputError(f"{term('ask_systems')}: {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not a "
                         f"system of the run ({', '.join(known)})")
    if len(set(names)) != len(names):
        raise InputError(f"{term('ask_systems')}: each system once, got {' '.join(names)}")
    return tuple(known.index(n) for n in names)


def _documents(run: Run, rows: Sequence[int], whole: bool) -> tuple[tuple[int, ...], ...]:
    """Each chosen row its own document, or (``whole``) every document a chosen row is in, all its rows in order."""
    if not whole:
        return tuple((row,) for row in rows)
    docs = run.context.docs
    if docs is None:
        raise InputError(f"{term('documents')}: the run has no documents: give them with {term('docs')}, or read a "
                         "format that has them (WMT XML, SGML, a table with a doc column)")
    wanted = {docs[row] for row in rows}
    by_doc: dict[str, list[int]] = {}
    for row, doc in enumerate(docs):
        if doc in wanted:
            by_doc.setdefault(doc, []).append(row)
    first = {doc: min(members) for doc, members in by_doc.items()}
    return tuple(tuple(by_doc[doc]) for doc in sorted(by_doc, key=first.__getitem__))


def _tasks(n_documents: int, raters: int, per_rater: int | None) -> tuple[tuple[int, ...], ...]:
    """Each document in ``raters`` tasks (never twice in one), ``per_rater`` documents a task: the documents cut in
    chunks, the chunks given to a new rater each time round."""
    size = per_rater or n_documents
    chunks = [tuple(range(k, min(k + size, n_documents))) for k in range(0, n_documents, size)]
    return tuple(chunk for _ in range(raters) for chunk in chunks)


def plan_campaign(run: Run, rows: Sequence[int], ask: CampaignAsk) -> CampaignPlan:
    """The campaign asking ``ask`` of ``rows`` (0-based rows of ``run``, a run of the whole inputs: a slice is its
    rows, so that the item ids name the inputs' lines and the whole source); :class:`InputError` for no segment, a
    system not in the run, documents the run has not."""
    if run.slice is not None:
        raise ValueError("plan a campaign on the whole run, with the slice's rows")
    ask = ask.checked()
    if not rows:
        raise InputError("no segment to ask about: the selection is empty (loosen the slice or the sample)")
    systems = system_indices(run, ask.systems)
    documents = _documents(run, sorted(set(rows)), ask.documents)
    tasks = _tasks(len(documents), ask.raters, ask.per_rater)
    key = run_key(run)
    flat = [row for doc in documents for row in doc]
    assert run.context.source is not None
    words = sum(word_count(run.context.source.lines[row]) for row in flat)
    estimate = Estimate(len(flat), len(systems), ask.raters, len(flat) * len(systems) * ask.raters,
                        words * len(systems) * ask.raters, ask.words_per_hour)
    return CampaignPlan(ask, ask.campaign_id, systems, documents, tasks, key, estimate)


def _item(run: Run, plan: CampaignPlan, i: int) -> dict[str, object]:
    assert run.context.source is not None
    item: dict[str, object] = {"src": run.context.source.lines[i]}
    item["tgt"] = {run.systems[s].name: run.systems[s].lines[i] for s in plan.systems}
    item["item_id"] = item_id(plan.key, i + 1)
    return item


def _mqm_categories() -> dict[str, list[str]]:
    """MQM's core typology as Pearmut's ``mqm_categories``: each dimension and its categories."""
    out: dict[str, list[str]] = {}
    for category in default_typology():
        dimension, _, sub = category.partition("/")
        out.setdefault(dimension, [])
        if sub:
            out[dimension].append(sub)
    return out


def campaign_json(run: Run, plan: CampaignPlan) -> dict[str, object]:
    """The campaign as ``pearmut add`` reads it (see the module)."""
    documents = [[_item(run, plan, row) for row in doc] for doc in plan.documents]
    info: dict[str, object] = {"assignment": "task-based", "protocol": PROTOCOLS[plan.ask.protocol],
                               "users": plan.raters, "seed": plan.ask.seed}
    if plan.ask.protocol == "mqm":
        info["mqm_categories"] = _mqm_categories()
    return {"campaign_id": plan.campaign_id, "info": info,
            "data": [[documents[d] for d in task] for task in plan.tasks]}


def _file_entry(path: Path, lines: Sequence[str]) -> dict[str, str]:
    return {"file": str(path.resolve()), "sha256": lines_digest(lines)}


def mapping_json(run: Run, plan: CampaignPlan, campaign_path: Path) -> dict[str, object]:
    """The mapping file (see the module)."""
    e = plan.estimate
    return {
        "bleu_gui_campaign": 1,
        "campaign_id": plan.campaign_id,
        "campaign_file": campaign_path.name,
        "protocol": PROTOCOLS[plan.ask.protocol],
        "item_id": f"{ID_PREFIX}:KEY:LINE (LINE: the segment's 1-based line in the run's inputs)",
        "key": plan.key,
        "source": _file_entry(run.context.source.path, run.context.source.lines) if run.context.source else None,
        "references": [_file_entry(r.path, r.lines) for r in run.references],
        "systems": {run.systems[s].name: _file_entry(run.systems[s].file.path, run.systems[s].file.lines)
                    for s in plan.systems},
        "chosen_by": plan.ask.chosen_by or "the run's segments",
        "lines": [row + 1 for row in plan.rows],
        "documents": len(plan.documents),
        "raters": plan.raters,
        "raters_per_item": plan.ask.raters,
        "estimate": {"segments": e.segments, "systems": e.systems, "ratings": e.ratings,
                     "source_words": e.source_words, "words_per_hour": e.words_per_hour,
                     "hours": round(e.hours, 2)},
    }


def mapping_path(campaign_path: str | Path) -> Path:
    """Where the mapping file of a campaign file is: ``NAME.bleu-gui.json`` beside ``NAME.json``."""
    path = Path(campaign_path)
    return path.with_name(f"{path.stem}.bleu-gui.json")


def write_campaign(run: Run, plan: CampaignPlan, path: str | Path, overwrite: bool = False,
                   protected: Sequence[str | Path] = ()) -> tuple[Path, Path]:
    """Write the campaign file and its mapping file; an existing file is never replaced unless ``overwrite``."""
    path = Path(path)
    if path.suffix.lower() != ".json":
        raise InputError(f"{path}: a campaign file is JSON: name it NAME.json")
    beside = mapping_path(path)
    for target in (path, beside):
        if target.exists() and not overwrite:
            raise InputError(f"{target}: exists; a campaign file is never replaced unasked (choose another name, or "
                             f"{term('overwrite')})")
        check_target(target, protected)
    if not plan.campaign_id:
        plan = replace(plan, campaign_id=path.stem)
    campaign = campaign_json(run, plan)
    write_atomic(path, strict_dumps(campaign) + "\n", protected)
    write_atomic(beside, strict_dumps(mapping_json(run, plan, path)) + "\n", protected)
    return path, beside


def hours_text(hours: float) -> str:
    """Hours as a person says them: "40 min", "3.5 h"."""
    if hours < 1:
        return f"{max(1, math.ceil(hours * 60))} min"
    return f"{hours:.1f} h"
