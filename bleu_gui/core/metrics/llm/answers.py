"""What the LLM judge is asked to answer (a JSON schema per judgement) and how an answer is read: parsed leniently
(a server may let a raw control character through inside a string), checked against the schema field by field, and
turned into errors — each quoting the text it blames — and, for ESA, a score. An answer that is not JSON, or not of
the schema, is a :class:`Refused` answer that says why; it is counted, never guessed at."""

from __future__ import annotations

from dataclasses import dataclass

from ...inputs.untrusted_json import JsonRefused, Limits, parse

SCHEMA_VERSION = 1  # in the cache's key and the signature: a new schema asks again
MAX_ERRORS = 8
MAX_QUOTE = 200
ANSWER_LIMITS = Limits(depth=8, digits=12)  # the schema nests 3 deep and its one number has 3 digits

# GEMBA-MQM's error typology (Kocmi & Federmann 2023, after Freitag et al. 2021's MQM), named as the MQM files of
# WMT name the categories, so that MQM's weights read them (Non-translation, Fluency/Punctuation).
MQM_CATEGORIES = (
    "Accuracy/Addition", "Accuracy/Mistranslation", "Accuracy/Omission", "Accuracy/Untranslated text",
    "Fluency/Character encoding", "Fluency/Grammar", "Fluency/Inconsistency", "Fluency/Punctuation",
    "Fluency/Register", "Fluency/Spelling", "Style/Awkward", "Terminology/Inappropriate for context",
    "Terminology/Inconsistent use", "Non-translation", "Other")
MQM_SEVERITIES = ("critical", "major", "minor")
ESA_SEVERITIES = ("major", "minor")  # ESA's two (Kocmi et al. 2024)


def _error_schema(judge: str) -> dict[str, object]:
    properties: dict[str, object] = {"span": {"type": "string", "maxLength": MAX_QUOTE}}
    if judge == "mqm":
        properties["category"] = {"type": "string", "enum": list(MQM_CATEGORIES)}
    properties["severity"] = {"type": "string", "enum": list(MQM_SEVERITIES if judge == "mqm" else ESA_SEVERITIES)}
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def schema(judge: str) -> dict[str, object]:
    """The JSON schema of the ``judge``'s answer (``mqm``: errors; ``esa``: errors and a 0-100 score)."""
    properties: dict[str, object] = {"errors": {"type": "array", "items": _error_schema(judge),
                                                "maxItems": MAX_ERRORS}}
    if judge == "esa":
        properties["score"] = {"type": "integer", "minimum": 0, "maximum": 100}
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


@dataclass(frozen=True)
class Quoted:
    """One error as the judge said it: the text it quoted, its category (MQM; '' for ESA) and severity."""

    span: str
    category: str
    severity: str


@dataclass(frozen=True)
class Judgement:
    """A valid answer: the errors and, for ESA, the judge's score."""

    errors: tuple[Quoted, ...]
    score: float | None = None


@dataclass(frozen=True)
class Refused:
    """An answer that could not be read, and why (one short phrase); ``hostile``: JSON the door for JSON refuses
    for what it holds (nested too deep, a number too long, a key twice), never kept in the cache."""

    why: str
    hostile: bool = False


def read_answer(content: str, judge: str) -> Judgement | Refused:
    """The answer ``content`` read as the ``judge``'s schema says (see the module)."""
    text = content.strip()
    if text.startswith("```"):  # a model that wraps JSON in a Markdown fence despite the schema
        text = text.strip("`").removeprefix("json").strip()
    try:
        # strict=False: a raw newline or tab inside a string is read (a server may let one through).
        data = parse(text, "the answer", strict=False, limits=ANSWER_LIMITS)
    except JsonRefused as exc:
        return Refused(str(exc).removeprefix("the answer: "), hostile=not exc.syntax)
    if not isinstance(data, dict):
        return Refused("not a JSON object")
    extra = set(data) - {"errors", "score"} if judge == "esa" else set(data) - {"errors"}
    if extra:
        return Refused(f"unknown field {sorted(extra)[0]!r}")
    errors = data.get("errors")
    if not isinstance(errors, list):
        return Refused("no list of errors")
    if len(errors) > MAX_ERRORS:
        return Refused(f"{len(errors)} errors, more than the schema's {MAX_ERRORS}")
    quoted: list[Quoted] = []
    for k, error in enumerate(errors, 1):
        read = _error(error, judge)
        if isinstance(read, Refused):
            return Refused(f"error {k}: {read.why}")
        quoted.append(read)
    if judge != "esa":
        return Judgement(tuple(quoted))
    score = data.get("score")
    if isinstance(score, bool) or not (isinstance(score, int) or isinstance(score, float) and score.is_integer()):
        return Refused("no whole-number score")
    if not 0 <= score <= 100:
        return Refused(f"score {score} outside 0-100")
    return Judgement(tuple(quoted), float(score) + 0.0)  # + 0.0: a score of -0 is 0


def _error(error: object, judge: str) -> Quoted | Refused:
    if not isinstance(error, dict):
        return Refused("not an object")
    wanted = {"span", "severity"} | ({"category"} if judge == "mqm" else set())
    if set(error) != wanted:
        missing, extra = wanted - set(error), set(error) - wanted
        return Refused(f"missing {sorted(missing)[0]!r}" if missing else f"unknown field {sorted(extra)[0]!r}")
    span, severity = error["span"], error["severity"]
    if not isinstance(span, str) or len(span) > MAX_QUOTE:
        return Refused(f"span is not a string of at most {MAX_QUOTE} characters")
    allowed = MQM_SEVERITIES if judge == "mqm" else ESA_SEVERITIES
    if severity not in allowed:
        return Refused(f"severity {severity!r} is not one of {', '.join(allowed)}")
    category = ""
    if judge == "mqm":
        category = error["category"]
        if category not in MQM_CATEGORIES:
            return Refused(f"category {str(category)[:40]!r} is not one of the schema's")
    return Quoted(span, category, str(severity).capitalize())
