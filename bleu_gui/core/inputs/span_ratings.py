"""Human ratings that come as a segment score with the error spans behind it — ESA (Kocmi et al. 2024, WMT24/25's
human evaluation) and Pearmut's logs — read as their producers write them, for ``--annotations`` (the spans) and as
a human score column (``esa``; ``da`` for a Pearmut campaign whose raters marked no span).

- **WMT's ESA lines** (``wmt24_esa.jsonl``, as WMT's ``humeval/merge_to_jsonl.py`` writes it): one JSON object per
  rater and segment, ``langs``, ``line_id`` (the segment's 0-based line in the test set), ``system``, ``src``,
  ``tgt``, ``annotator``, ``esa_score`` (0–100, a string there) and ``esa_spans``.
- **WMT's ESA per segment** (``wmt24-genmt-humeval.jsonl``): one object per segment, ``src_text``, ``tgt_text``
  (system → its text), ``scores`` (system → a list of ``{score, annotator, errors}``) and ``doc_id``
  (``LP_#_DOMAIN_#_DOC_#_LINEID``: the pair and the 0-based line).
- **Pearmut's log** (``data/annotations/CAMPAIGN.jsonl``, or the dashboard's download, ``{campaign: [lines]}``):
  one object per submitted item, ``user_id``, ``item_i``, ``item`` (what was shown, a list of ``{src, tgt: model →
  text}``) and ``annotation`` (in step with ``item``: model → ``{score, error_spans}``). A line
  ``{"user_id", "annotation": "__RESET__"}`` voids that user's earlier lines of the campaign. Logs written before
  Pearmut 1.1.6 hold no ``item``: the campaign file Pearmut stored (``data/campaigns/ID.json``: ``campaign_id``,
  ``info``, ``data``), given beside the log, says what each user's ``item_i`` showed, and its protocol.

A span is ``{start_i, end_i, severity, category?}``: offsets in **UTF-16 code units** of the system's text (the
raters' web pages count in JavaScript), ``end_i`` *inclusive*. They are turned into code points here, once. An
omission is ``"missing"`` (WMT) or a span on Pearmut's ``[missing]`` token, which stands after the text (its
offset is the text's UTF-16 length): an error without a span.

A rater who changes a rating appears again (WMT: another line; Pearmut: the item resubmitted): the later rating
replaces the earlier, as WMT's ``humeval/tools.py`` and Pearmut's own results do; a line repeated exactly is read
once. These files name segments by their text, not by a line of the run: :mod:`.span_placement` places them.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError, term
from .ratings import ESA_SEVERITIES, rating_score, severity_of
from .raw_input import read_bytes
from .score_files import json_objects
from .text_files import decode_text_files
from .untrusted_json import JsonRefused, parse

ESA, DA = "esa", "da"  # the score column's name: an ESA score (spans marked), a DA score (none marked)
RESET = "__RESET__"  # Pearmut's reset marker (pearmut/utils.py)
# What Pearmut's raters choose from (its ESA page offers a critical one too, as its own logs show); an undecided span
# is read as Neutral apart from these.
PEARMUT_SEVERITIES = ("Critical", "Major", "Minor")


@dataclass(frozen=True)
class Span:
    """One marked error: ``start``/``end`` code-point offsets (end exclusive; None for an omission);
    ``undecided``: the rater gave no severity (read as Neutral)."""

    start: int | None
    end: int | None
    severity: str
    category: str
    undecided: bool = False


@dataclass(frozen=True)
class SpanRating:
    """What one rater said of one system's segment: the score (None when not given) and the spans.

    ``line``: the file's line (the entry's number in a dashboard download); ``group``: what a rater's id is unique
    within (a Pearmut campaign); ``langs``: the language pair, when the file says."""

    line: int
    system: str
    rater: str
    score: float | None
    spans: tuple[Span, ...]
    target: str
    source: str | None
    position: int | None  # the segment's 0-based line in the test set, when the file says
    group: str = ""
    langs: str | None = None
    item_id: str | None = None  # the id the campaign gave the item (bleu-gui's own: :mod:`.campaign_ids`)


@dataclass(frozen=True)
class SpanRatings:
    """A file's ratings, the format it was read as, whether any rating marked spans (ESA) or none (DA), and what
    reading them set aside."""

    path: Path
    kind: str
    ratings: list[SpanRating]
    marks_spans: bool
    duplicates: int = 0  # lines repeated exactly, read once
    reset: int = 0       # ratings voided by a Pearmut reset
    clamped: int = 0     # spans running onto Pearmut's [missing] token, ended at the text's end
    tutorial: int = 0    # Pearmut's welcome and goodbye items, left out
    protocol: str = ""   # the Pearmut campaign's protocol, where its campaign file was given


@dataclass(frozen=True)
class Campaign:
    """A Pearmut campaign as Pearmut stored it: its id, protocol and what each item showed (``data``: user → their
    documents for a task-based campaign, else the documents every user draws from)."""

    path: Path
    campaign_id: str
    protocol: str
    data: dict[str, list[object]] | list[object]

    def shown(self, user: str, item_i: object) -> object:
        """What item ``item_i`` showed ``user`` (a document: a list of items), None when the campaign has no such
        item."""
        if not isinstance(item_i, int) or isinstance(item_i, bool) or item_i < 0:
            return None
        documents = self.data.get(user) if isinstance(self.data, dict) else self.data
        return documents[item_i] if isinstance(documents, list) and item_i < len(documents) else None


def _campaign_object(obj: object) -> bool:
    return isinstance(obj, dict) and "campaign_id" in obj and "data" in obj and isinstance(obj.get("info"), dict)


def is_campaign(path: str | Path, encoding: str = "utf-8") -> bool:
    """Whether ``path`` is a Pearmut campaign file (a JSON object with ``campaign_id``, ``info`` and ``data``)."""
    path = Path(path)
    if path.suffix.lower() != ".json":
        return False
    try:
        text = decode_text_files([path], [read_bytes(path, encoding)], encoding)[0]
        return _campaign_object(parse("\n".join(text.lines), str(path)))
    except (InputError, UnicodeDecodeError):
        return False


def read_campaign(path: str | Path, encoding: str = "utf-8") -> Campaign:
    """A Pearmut campaign file (see :class:`Campaign`); :class:`InputError` says what it lacks."""
    path = Path(path)
    text = decode_text_files([path], [read_bytes(path, encoding)], encoding)[0]
    obj = parse("\n".join(text.lines), str(path))
    if not _campaign_object(obj):
        raise InputError(f"{path}: not a Pearmut campaign file (campaign_id, info and data)")
    data = obj["data"]
    if not isinstance(data, dict | list):
        raise InputError(f"{path}: the campaign's data is neither a list of documents nor users' lists of them")
    info = obj["info"]
    return Campaign(path, str(obj["campaign_id"]), str(info.get("protocol") or ""), data)


@dataclass(frozen=True)
class _Entry:
    """One object of the file, where it is (``where`` for messages) and its group (a download's campaign)."""

    line: int
    where: str
    group: str
    obj: dict[str, object]


class _Counts:
    def __init__(self) -> None:
        self.with_spans = self.clamped = self.reset = self.tutorial = 0


def _score(path: Path, where: str, value: object) -> float | None:
    """A rating's score, checked as every reader and the desk check one (:func:`.ratings.rating_score`): ESA's and
    DA's ranges are both 0-100, and which of the two a Pearmut file is becomes known only once it is read whole."""
    return rating_score(value, ESA, f"{path}: {where}")


def utf16_positions(text: str) -> list[int]:
    """Each UTF-16 code unit of ``text`` → the code point it belongs to (a surrogate pair's two units → one)."""
    out: list[int] = []
    for i, ch in enumerate(text):
        out.append(i)
        if ord(ch) > 0xFFFF:
            out.append(i)
    return out


def _offsets(path: Path, where: str, target: str, start: int, end: int, counts: _Counts,
             pearmut: bool) -> tuple[int, int] | None:
    """A span's UTF-16 offsets (end inclusive) as code points (end exclusive); None for Pearmut's ``[missing]``.
    Each producer's rule on its own files only: Pearmut's ``[missing]`` token stands after the text (its offset is
    the text's length, a selection may run onto it); WMT marks an omission ``"missing"``, so in WMT's files every
    span lies inside its text, and one that does not is refused."""
    units = utf16_positions(target) if any(ord(ch) > 0xFFFF for ch in target) else None
    length = len(units) if units is not None else len(target)
    if pearmut and start == end >= length:  # a special token after the text: Pearmut's [missing]
        return None
    if pearmut and end == length and 0 <= start < length:  # selected from the text onto [missing]: the text's part
        counts.clamped += 1
        end -= 1
    if not 0 <= start <= end < length:
        raise InputError(f"{path}: {where}: the span {start}..{end} (UTF-16 offsets, end inclusive) is outside its "
                         f"text of {length} UTF-16 code units")
    if units is None:
        return start, end + 1
    return units[start], units[end] + 1


def _spans(path: Path, where: str, target: str, value: object, counts: _Counts, pearmut: bool = False,
           severities: tuple[str, ...] = ESA_SEVERITIES) -> tuple[Span, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InputError(f"{path}: {where}: the error spans are not a list")
    out = []
    for span in value:
        if not isinstance(span, dict):
            raise InputError(f"{path}: {where}: an error span is not an object: {json.dumps(span)[:60]}")
        said = span.get("severity")
        undecided = said is None or str(said).strip().lower() in ("", "undecided")
        severity = "Neutral" if undecided else severity_of(path, where, str(said), severities)
        start, end = span.get("start_i"), span.get("end_i")
        category = str(span.get("category") or span.get("error_type") or "")
        if start == "missing" or end == "missing" or (start is None and end is None):
            out.append(Span(None, None, severity, category, undecided))
            continue
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end)):
            raise InputError(f"{path}: {where}: start_i and end_i must be character offsets (whole numbers), "
                             f"got {json.dumps(start)} and {json.dumps(end)}")
        assert isinstance(start, int) and isinstance(end, int)
        at = _offsets(path, where, target, start, end, counts, pearmut)
        out.append(Span(None, None, severity, category, undecided) if at is None
                   else Span(at[0], at[1], severity, category, undecided))
    return tuple(out)


def _text(value: object) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


def _whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _esa_lines(path: Path, entries: list[_Entry], counts: _Counts) -> Iterator[SpanRating]:
    for e in entries:
        obj = e.obj
        if "system" not in obj or "tgt" not in obj:
            raise InputError(f"{path}: {e.where}: an ESA line needs \"system\" and \"tgt\" (keys: {', '.join(obj)})")
        target = _text(obj["tgt"])
        yield SpanRating(e.line, _text(obj["system"]), _text(obj.get("annotator")) or "(unnamed)",
                         _score(path, e.where, obj.get("esa_score")),
                         _spans(path, e.where, target, obj.get("esa_spans"), counts),
                         target, _text(obj["src"]) if "src" in obj else None, _whole(obj.get("line_id")),
                         langs=_text(obj["langs"]) if "langs" in obj else None)


def _doc_id_parts(value: object) -> tuple[str | None, int | None]:
    """WMT's per-segment ``doc_id`` (``LP_#_DOMAIN_#_DOC_#_LINEID``): the pair and the 0-based line."""
    parts = _text(value).split("_#_")
    if len(parts) < 2:
        return None, None
    langs = parts[0] if re.fullmatch(r"[A-Za-z_]+-[A-Za-z_]+", parts[0]) else None
    return langs, int(parts[-1]) if parts[-1].isdigit() else None


def _rated_at(rating: Mapping[str, object]) -> float:
    """When a rating of WMT's per-segment file was last changed (its last time stamp; -inf when it has none)."""
    times = rating.get("times")
    try:
        return max(float(t) for t in times) if isinstance(times, list) and times else -math.inf
    except (TypeError, ValueError):
        return -math.inf


def _esa_segments(path: Path, entries: list[_Entry], counts: _Counts) -> Iterator[SpanRating]:
    for e in entries:
        obj = e.obj
        scores, texts = obj.get("scores"), obj.get("tgt_text")
        if not isinstance(scores, dict) or not isinstance(texts, dict):
            raise InputError(f"{path}: {e.where}: a segment of WMT's ESA needs \"scores\" and \"tgt_text\" objects")
        langs, position = _doc_id_parts(obj.get("doc_id"))
        for system, ratings in scores.items():
            if system not in texts or not isinstance(ratings, list):
                raise InputError(f"{path}: {e.where}: system {system!r} has no text in tgt_text, or its ratings "
                                 "are not a list")
            target = _text(texts[system])
            if not all(isinstance(rating, dict) for rating in ratings):
                raise InputError(f"{path}: {e.where}: a rating of {system!r} is not an object")
            # The list is not in the order the ratings were made (a rater's re-rating may come first): their
            # times say which is the later one, as the line layout's order does.
            for rating in sorted(ratings, key=_rated_at):
                yield SpanRating(e.line, system, _text(rating.get("annotator")) or "(unnamed)",
                                 _score(path, e.where, rating.get("score")),
                                 _spans(path, e.where, target, rating.get("errors"), counts), target,
                                 _text(obj["src_text"]) if "src_text" in obj else None, position, langs=langs)


def _pearmut_item(path: Path, e: _Entry, marks: object, shown: object, counts: _Counts) -> Iterator[SpanRating]:
    if not isinstance(marks, dict) or not isinstance(shown, dict) or not isinstance(shown.get("tgt"), dict):
        raise InputError(f"{path}: {e.where}: an item needs \"tgt\" (model → text) and its annotation an object "
                         "(model → score and error_spans)")
    texts = shown["tgt"]
    assert isinstance(texts, dict)
    for model, said in marks.items():
        if not isinstance(said, dict):
            raise InputError(f"{path}: {e.where}: the annotation of {model!r} is not an object")
        if model not in texts:
            raise InputError(f"{path}: {e.where}: {model!r} was annotated but the item shows no text of it")
        target = _text(texts[model])
        spans = _spans(path, e.where, target, said.get("error_spans"), counts, pearmut=True,
                       severities=PEARMUT_SEVERITIES)
        counts.with_spans += bool(spans)
        yield SpanRating(e.line, model, _text(e.obj.get("user_id")) or "(unnamed)",
                         _score(path, e.where, said.get("score")), spans, target,
                         _text(shown["src"]) if "src" in shown else None, None, group=e.group,
                         item_id=_text(shown["item_id"]) if "item_id" in shown else None)


def _campaign_of(path: Path, e: _Entry, campaigns: Sequence[Campaign]) -> Campaign | None:
    """The campaign of an entry: by the download's campaign or the log's file name (Pearmut names a log by its
    campaign), else the one campaign given."""
    named = e.group or path.stem
    return next((c for c in campaigns if c.campaign_id == named), campaigns[0] if len(campaigns) == 1 else None)


def _shown_by_campaign(path: Path, e: _Entry, campaigns: Sequence[Campaign]) -> object:
    campaign = _campaign_of(path, e, campaigns)
    if campaign is None:
        raise InputError(f"{path}: {e.where}: a Pearmut line without \"item\" (what was shown) cannot be placed on "
                         "the run's segments: Pearmut logs the texts with each rating from version 1.1.6 on; for an "
                         f"older log, give the campaign file Pearmut stored (data/campaigns/{e.group or path.stem}."
                         f"json) beside it, with {term('annotations')}")
    shown = campaign.shown(_text(e.obj.get("user_id")), e.obj.get("item_i"))
    if shown is None:
        raise InputError(f"{path}: {e.where}: item {json.dumps(e.obj.get('item_i'))} of user "
                         f"{_text(e.obj.get('user_id'))!r} is not in the campaign file {campaign.path.name}")
    return shown


def _pearmut(path: Path, entries: list[_Entry], counts: _Counts,
             campaigns: Sequence[Campaign] = ()) -> Iterator[SpanRating]:
    by_user: dict[tuple[str, str], list[SpanRating]] = {}
    order: list[tuple[str, str]] = []
    for e in entries:
        annotation, item = e.obj.get("annotation"), e.obj.get("item")
        user = (e.group, _text(e.obj.get("user_id")))
        if user not in by_user:
            by_user[user] = []
            order.append(user)
        if annotation == RESET:  # the dashboard's reset: this user's earlier lines no longer count
            counts.reset += len(by_user[user])
            by_user[user] = []
            continue
        if isinstance(e.obj.get("item_i"), str) and str(e.obj["item_i"]).startswith(("welcome_", "goodbye_")):
            counts.tutorial += 1  # Pearmut's welcome and goodbye items: the campaign's training, no segment of a run
            continue
        if item is None:
            item = _shown_by_campaign(path, e, campaigns)
        if isinstance(annotation, list) != isinstance(item, list) or (
                isinstance(annotation, list) and isinstance(item, list) and len(annotation) != len(item)):
            raise InputError(f"{path}: {e.where}: \"annotation\" and \"item\" are not in step (one per shown segment)")
        pairs = (list(zip(annotation, item, strict=True)) if isinstance(annotation, list) and isinstance(item, list)
                 else [(annotation, item)])
        for marks, shown in pairs:
            by_user[user] += _pearmut_item(path, e, marks, shown, counts)
    for user in order:
        yield from by_user[user]


def _entries(path: Path, text: str) -> list[_Entry]:
    whole = None if _json_lines(text) else parse(text, str(path))  # a download: one object, {campaign: [lines]}
    if isinstance(whole, dict) and whole and all(isinstance(v, list) for v in whole.values()):
        out = []
        for campaign, lines in whole.items():
            for k, line in enumerate(lines, 1):
                if not isinstance(line, dict):
                    raise InputError(f"{path}: campaign {campaign!r}, entry {k}: not a JSON object")
                out.append(_Entry(k, f"campaign {campaign!r}, entry {k}", campaign, line))
        if not out:
            raise InputError(f"{path}: no ratings (the download's campaigns hold no entry)")
        return out
    return [_Entry(n, f"line {n}", "", obj) for n, obj in json_objects(path, text, "ratings")[1]]


def _json_lines(text: str) -> bool:
    """Whether ``text`` is JSON Lines (its first line a whole object, and more lines after it), not one document
    (a dashboard download, on one line or pretty-printed)."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) < 2:
        return False
    try:
        return isinstance(parse(lines[0], ""), dict)
    except JsonRefused as exc:
        return not exc.syntax  # a first line the door refuses is a whole line of its own: JSON Lines, said there


def kind_of(first: Mapping[str, object]) -> str | None:
    """Which of the module's formats an object of a file is (its first), None when none."""
    if "esa_score" in first or "esa_spans" in first:
        return "WMT ESA"
    if isinstance(first.get("scores"), dict) and isinstance(first.get("tgt_text"), dict):
        return "WMT ESA per segment"
    if "annotation" in first and ("user_id" in first or "item_i" in first):
        return "Pearmut"
    return None


def sniff(path: str | Path, encoding: str = "utf-8") -> bool:
    """Whether ``path`` is a file of this module's formats (JSON or JSON Lines whose first object is one). A file of
    these formats that the door for JSON refuses is one (its reader then says why)."""
    path = Path(path)
    if path.suffix.lower() not in (".jsonl", ".json"):
        return False
    try:
        text = decode_text_files([path], [read_bytes(path, encoding)], encoding)[0]
    except (InputError, UnicodeDecodeError):
        return False
    first_line = next((line for line in text.lines if line.strip()), "")
    first = _looked_at(first_line)
    # JSON Lines: its first object says (the whole file is read only when the ratings are); a dashboard download
    # or a pretty-printed file: the whole object.
    if isinstance(first, dict) and not (first and all(isinstance(v, list) for v in first.values())):
        return kind_of(first) is not None
    whole = _looked_at("\n".join(text.lines))
    if isinstance(whole, dict) and whole and all(isinstance(v, list) for v in whole.values()):
        entries = [line for lines in whole.values() for line in lines]
        return bool(entries) and isinstance(entries[0], dict) and kind_of(entries[0]) is not None
    return False


def _looked_at(text: str) -> object:
    """``text`` read to tell its format only (never to read its values): the door's reading, or where the door
    refuses it for what it holds, the standard parser's (its errors caught)."""
    try:
        return parse(text, "")
    except JsonRefused as exc:
        if exc.syntax:
            return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _without_repeats(entries: list[_Entry]) -> tuple[list[_Entry], int]:
    """The entries with a line repeated exactly (a client's retry, a merge run twice) kept once."""
    seen: set[tuple[str, str]] = set()
    out = []
    for e in entries:
        key = (e.group, json.dumps(e.obj, sort_keys=True, ensure_ascii=False))
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out, len(entries) - len(out)


def read_span_ratings(path: str | Path, encoding: str = "utf-8", campaigns: Sequence[Campaign] = ()) -> SpanRatings:
    """A file of ESA or Pearmut ratings (see the module); :class:`InputError` names the line and what is wrong.
    ``campaigns``: Pearmut campaign files given beside it (what an older log's items showed, and the protocol)."""
    path = Path(path)
    text = decode_text_files([path], [read_bytes(path, encoding)], encoding)[0]
    entries, duplicates = _without_repeats(_entries(path, "\n".join(text.lines)))
    kind = kind_of(entries[0].obj)
    counts = _Counts()
    if kind == "Pearmut":
        ratings = list(_pearmut(path, entries, counts, campaigns))
    elif kind in ("WMT ESA", "WMT ESA per segment"):
        ratings = list((_esa_lines if kind == "WMT ESA" else _esa_segments)(path, entries, counts))
    else:
        raise InputError(f"{path}: {entries[0].where}: neither WMT's ESA nor a Pearmut log (keys: "
                         f"{', '.join(entries[0].obj)})")
    assert kind is not None
    # Pearmut logs "error_spans": [] in every protocol: its campaign file says the protocol; without it, a campaign
    # whose raters marked no span at all is DA.
    protocol = next((c.protocol for c in campaigns if c.campaign_id == (entries[0].group or path.stem)), "")
    marks_spans = kind != "Pearmut" or (protocol.upper() != "DA" if protocol else counts.with_spans > 0)
    return SpanRatings(path, kind, ratings, marks_spans, duplicates, counts.reset, counts.clamped, counts.tutorial,
                       protocol)
