"""ESA and Pearmut ratings (:mod:`.span_ratings` reads them) placed on a run: only the run's language pair, each
rating on the segment of its system whose text is the rated text and whose source the rated source (the file's
line deciding between equal texts), a rater's later rating of a segment replacing the earlier; what was left out
counted in notes; the scores as a score file's table (the human column ``esa`` or ``da``)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError, term
from .campaign_ids import parse_item_id, source_key
from .corpus import Context
from .score_files import ScoreRow, ScoreTable, system_index
from .span_ratings import DA, ESA, RESET, Campaign, SpanRating, SpanRatings, read_span_ratings
from .text_files import SegmentFile


def _language(code: str) -> str:
    return re.split(r"[-_]", code.strip().lower())[0]


def _pair(langs: str) -> tuple[str, str]:
    source, _, target = langs.partition("-")
    return _language(source), _language(target)


def of_the_run_pair(read: SpanRatings, context: Context) -> tuple[list[SpanRating], dict[str, int]]:
    """The ratings of the run's language pair (WMT's files mix every pair; the same text occurs in several), and
    the count left out per other pair. A file of several pairs in a run that declares no language is refused,
    naming the pairs."""
    pairs: dict[str, int] = {}
    for r in read.ratings:
        if r.langs is not None:
            pairs[r.langs] = pairs.get(r.langs, 0) + 1
    if len(pairs) <= 1 and (not pairs or context.languages is None):
        return read.ratings, {}
    if context.languages is None or not any(context.languages):
        raise InputError(f"{read.path}: the ratings are of {len(pairs)} language pairs ("
                         + ", ".join(f"{p}: {c:,}" for p, c in sorted(pairs.items()))
                         + f"); say which is the run's with {term('langs')} SRC TGT")
    want = tuple(_language(x) for x in context.languages)

    def ours(langs: str) -> bool:
        return all(not w or w == got for w, got in zip(want, _pair(langs), strict=True))

    return ([r for r in read.ratings if r.langs is None or ours(r.langs)],
            {p: c for p, c in sorted(pairs.items()) if not ours(p)})


@dataclass(frozen=True)
class Placed:
    """The ratings of a file placed on the run: each with its system's and segment's index, and what was left out
    or replaced."""

    ratings: list[tuple[SpanRating, int, int]]
    other_systems: dict[str, int]
    not_found: int      # ratings whose text no segment of their system holds
    ambiguous: int      # ratings whose text several segments hold, with nothing to decide between them
    other_source: int = 0  # ratings whose text a segment holds, under another source
    replaced: int = 0      # ratings replaced by the same rater's later rating of the segment
    other_pairs: tuple[tuple[str, int], ...] = ()
    by_id: int = 0         # ratings placed by the item id of a campaign bleu-gui wrote
    changed: int = 0       # ratings whose id names a line whose text is not the rated text (another file)
    foreign: int = 0       # ratings whose id names another source (a campaign of another run): never placed


def place(found: Mapping[str, int], ratings: Sequence[SpanRating], systems: Sequence[SegmentFile],
          context: Context) -> Placed:
    """Each rating on the segment of its system (``found``: file system name → index) whose text is the rated
    text and whose source the rated source; a rater's later rating of a segment replaces the earlier (see the
    module)."""
    where: list[dict[str, list[int]]] = []
    for f in systems:
        lines: dict[str, list[int]] = {}
        for i, line in enumerate(f.lines):
            lines.setdefault(line, []).append(i)
        where.append(lines)
    source = context.source.lines if context.source is not None else None
    ours = source_key(source) if source is not None else None
    latest: dict[tuple[str, str, int, int], tuple[SpanRating, int, int]] = {}
    other: dict[str, int] = {}
    not_found = ambiguous = other_source = replaced = by_id = changed = foreign = 0
    for r in ratings:
        system = found.get(r.system)
        if system is None:
            other[r.system] = other.get(r.system, 0) + 1
            continue
        ided = parse_item_id(r.item_id)
        by_line = ided is not None and ided[0] == ours
        if ided is not None and not by_line:  # asked about another source: by its line or its text, never here
            foreign += 1
            continue
        if ided is not None and by_line:
            row = ided[1] - 1
            if row >= len(systems[system].lines) or systems[system].lines[row] != r.target:
                changed += 1
                continue
            by_id += 1
            candidates = [row]
        else:
            candidates = where[system].get(r.target, [])
        if not by_line and source is not None and r.source is not None and candidates:
            candidates = [i for i in candidates if source[i].strip() == r.source.strip()]
            if not candidates:
                other_source += 1
                continue
        if not by_line and r.position is not None and r.position in candidates:
            candidates = [r.position]
        if len(candidates) != 1:
            ambiguous += bool(candidates)
            not_found += not candidates
            continue
        key = (r.group, r.rater, system, candidates[0])
        replaced += key in latest
        latest.pop(key, None)  # the later rating takes the earlier one's place in the order, too
        latest[key] = (r, system, candidates[0])
    return Placed(list(latest.values()), other, not_found, ambiguous, other_source, replaced, by_id=by_id,
                  changed=changed, foreign=foreign)


def _refuse_another_campaign(read: SpanRatings, context: Context) -> None:
    """A results file whose items all carry bleu-gui's ids, none of this run's source, is another run's campaign:
    refused, naming it (placing its ratings by their texts would put them on whatever segment says the same)."""
    ids = [parse_item_id(r.item_id) for r in read.ratings]
    if not ids or any(i is None for i in ids):
        return
    keys = {i[0] for i in ids if i is not None}
    ours = source_key(context.source.lines) if context.source is not None else None
    if ours in keys:
        return
    campaigns = sorted({r.group or read.path.stem for r in read.ratings})
    if ours is None:
        raise InputError(f"{read.path}: the ratings of campaign {', '.join(campaigns)} name their segments by the "
                         f"source they were asked with: give that source with {term('source')}")
    raise InputError(f"{read.path}: the ratings of campaign {', '.join(campaigns)} were asked about another source "
                     f"(their item ids name source {', '.join(sorted(keys))}; this run's is {ours}): they are not "
                     "this run's ratings")


def _system_table(path: Path, ratings: Sequence[SpanRating]) -> ScoreTable:
    return ScoreTable(path, [ScoreRow(r.line, r.system, "", "", {}) for r in ratings], False, False, [])


PlacedFile = tuple[SpanRatings, Placed, list[str]]  # a file's ratings, placed on the run, and the notes said


def _id_notes(name: str, placed: Placed) -> list[str]:
    notes = []
    if placed.by_id:
        notes.append(f"{name}: {placed.by_id:,} ratings placed by the item ids of the campaign bleu-gui wrote (their "
                     "line, not their text)")
    if placed.foreign:
        notes.append(f"{name}: {placed.foreign:,} ratings left out: their item ids name another source (a campaign "
                     "asked about another run's files; placing them by their text would put them on whatever segment "
                     "says the same)")
    if placed.changed:
        notes.append(f"{name}: {placed.changed:,} ratings left out: their item id names a line whose text is not the "
                     "rated text (the run's file is not the one the campaign asked about)")
    return notes


def _notes(read: SpanRatings, placed: Placed, other_pairs: Mapping[str, int]) -> list[str]:
    name = read.path.name
    notes = [f"{name}: read as {read.kind} ({len(read.ratings):,} ratings; spans in UTF-16 code units, ends "
             "inclusive)"]
    if read.kind == "Pearmut" and read.protocol:
        notes.append(f"{name}: its campaign file says the protocol is {read.protocol}: read as "
                     f"{'ESA' if read.marks_spans else 'DA'} scores ({ESA if read.marks_spans else DA})")
    elif read.kind == "Pearmut" and not read.marks_spans:
        notes.append(f"{name}: no rating marks an error span: read as DA scores ({DA})")
    if read.tutorial:
        notes.append(f"{name}: {read.tutorial:,} ratings of Pearmut's welcome and goodbye items left out")
    if other_pairs:
        notes.append(f"{name}: ratings of other language pairs left out: "
                     + ", ".join(f"{p} ({c:,})" for p, c in other_pairs.items()))
    if read.duplicates:
        notes.append(f"{name}: {read.duplicates:,} lines repeat an earlier line exactly: read once")
    if read.reset:
        notes.append(f"{name}: {read.reset:,} ratings voided by a reset of their rater's work (Pearmut's "
                     f"{RESET})")
    notes += _id_notes(name, placed)
    if placed.replaced:
        notes.append(f"{name}: {placed.replaced:,} ratings replaced by the same rater's later rating of the segment "
                     "(the latest counts, as WMT and Pearmut count)")
    if placed.other_systems:
        notes.append(f"{name}: ratings of systems the run does not hold left out: "
                     + ", ".join(f"{s} ({c:,})" for s, c in placed.other_systems.items()))
    if placed.not_found:
        notes.append(f"{name}: {placed.not_found:,} ratings of a text that is no segment of its system left out")
    if placed.other_source:
        notes.append(f"{name}: {placed.other_source:,} ratings of a text whose segments have another source left "
                     "out")
    if placed.ambiguous:
        notes.append(f"{name}: {placed.ambiguous:,} ratings of a text several segments of its system hold (and "
                     "nothing in the file tells which) left out")
    undecided = sum(span.undecided for r, _, _ in placed.ratings for span in r.spans)
    if undecided:
        notes.append(f"{name}: {undecided:,} error spans without a severity read as Neutral (weight 0)")
    if read.clamped:
        notes.append(f"{name}: {read.clamped:,} spans run onto Pearmut's [missing] token: ended at the text's end")
    return notes


def _items(value: object) -> list[dict[str, object]]:
    """The items (objects with ``tgt``) anywhere in a campaign's data: users' tasks, documents, items."""
    if isinstance(value, dict):
        return [value] if "tgt" in value else [i for v in value.values() for i in _items(v)]
    return [i for v in value for i in _items(v)] if isinstance(value, list) else []


def _models(item: dict[str, object]) -> list[str]:
    tgt = item.get("tgt")
    return [str(model) for model in tgt] if isinstance(tgt, dict) else []


def _asked_notes(read: SpanRatings, placed: Placed, campaigns: Sequence[Campaign]) -> list[str]:
    """How much of a campaign bleu-gui wrote came back: the ratings it asked (an item's systems, once per rater
    it was given to) and the segments rated at least once."""
    notes = []
    in_force = {(r.item_id, r.system) for r, _, _ in placed.ratings}
    for campaign in campaigns:
        asked = [(str(item["item_id"]), str(model)) for item in _items(campaign.data)
                 if parse_item_id(item.get("item_id")) is not None for model in _models(item)]
        if not asked or not in_force & set(asked):
            continue
        ratings = sum(1 for r, _, _ in placed.ratings if (r.item_id, r.system) in set(asked))
        pairs = set(asked)
        rated = len(in_force & pairs)
        notes.append(f"{read.path.name}: {ratings:,} of the {len(asked):,} ratings campaign {campaign.campaign_id} "
                     f"asked are in; {rated:,} of its {len(pairs):,} segments (of a system) rated at least once"
                     + (f", {len(pairs) - rated:,} not rated (left out of every score)" if rated < len(pairs) else ""))
    return notes


def placed_ratings(path: str | Path, systems: Sequence[SegmentFile], names: Sequence[str], context: Context,
                   encoding: str = "utf-8", campaigns: Sequence[Campaign] = ()) -> PlacedFile:
    """The file's ratings placed on the run's segments, and notes on what was left out and how it was read."""
    read = read_span_ratings(path, encoding, campaigns)
    _refuse_another_campaign(read, context)
    ratings, other_pairs = of_the_run_pair(read, context)
    found = system_index(_system_table(read.path, ratings), systems, names)
    placed = place(found, ratings, systems, context)
    return read, placed, _notes(read, placed, other_pairs) + _asked_notes(read, placed, campaigns)


def _who(rating: SpanRating) -> str:
    """A rater as another file may name them: a Pearmut id is one within its campaign."""
    return f"{rating.rater} ({rating.group})" if rating.group else rating.rater


def score_table(read: SpanRatings, placed: Placed, names: Sequence[str]) -> ScoreTable | None:
    """The ratings' scores as a table of ratings: a row per rating that gave a score (system, 1-based line,
    rater); a segment's score is the mean over its raters — ESA's and DA's segment score (Kocmi et al. 2024). None
    when no rating gave a score (spans only). The rated segments are a sample: the others are unrated, not
    refused."""
    column = ESA if read.marks_spans else DA
    rows = [ScoreRow(r.line, names[system], "", str(segment + 1), {column: repr(r.score)}, rater=_who(r))
            for r, system, segment in sorted(placed.ratings, key=lambda rating: rating[1:])  # by system, segment
            if r.score is not None]
    if not rows:
        return None
    return ScoreTable(read.path, rows, False, False, [column], partial=True, ratings=True)


def score_tables(paths: Sequence[str | Path], systems: Sequence[SegmentFile], names: Sequence[str], context: Context,
                 encoding: str = "utf-8", campaigns: Sequence[Campaign] = ()) -> tuple[list[ScoreTable], list[str]]:
    """Each file's scores as a score file's table (:func:`score_table`), and the notes on how each was read."""
    tables, notes = [], []
    for path in paths:
        read, placed, said = placed_ratings(path, systems, names, context, encoding, campaigns)
        table = score_table(read, placed, names)
        if table is not None:
            tables.append(table)
        notes += said
    return tables, notes
