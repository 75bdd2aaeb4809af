"""Messages in the window's words: a field a core message names (an input option, a metric's setting) is said as
the window's own field that sets it — "Languages (File ▸ Open)", "Tokenizer ja-mecab (BLEU, Scoring settings)" —
never as a flag the window does not have. The command line words the same fields as its flags."""

from __future__ import annotations

import re

from ..core.errors import InputError, worded
from ..core.metrics.registry import KEYS, family

# The Open dialog's fields, as messages name them (the dialog labels its fields with these).
FIELDS = {"systems": "System outputs", "references": "References", "source": "Source", "docs": "Documents",
          "encoding": "Encoding", "input_format": "Format", "langs": "Languages", "refs_wanted": "References to use",
          "systems_wanted": "Systems to score", "columns": "Columns", "keep_tags": "Keep inline tags",
          "allow_identical": "Identical reference", "labels": "Display names", "where": "Slice",
          "scores": "Segment scores", "lower_better": "Lower is better", "scores_partial": "Partial scores",
          "annotations": "Error annotations", "sheet": "Sheet"}
_OTHER = {"metrics": "the Metric list", "glossary": "Glossary… (Tools ▸ QA checks)",
          "meta_eval": "The human scores (Humans ▸ Scores)",
          "span_eval": "Spans against (Humans ▸ Spans)", "error_free": "Humans ▸ Error-free",
          "error_free_out": "Save calibration… (Humans ▸ Error-free)",
          "llm_batch_in": "File ▸ Import LLM batch results…",
          "test_set": "the test set (File ▸ Open test set…)", "language_pair": "its language pair (File ▸ Open test set…)",
          "triage": "Needs a human",  # the rule box of Tools ▸ Triage (its own dialog says it)
          # File ▸ Ask the humans…'s fields.
          "ask_systems": "Systems (File ▸ Ask the humans…)",
          "documents": "keep documents whole (File ▸ Ask the humans…)",
          "sample_by": "Sample (File ▸ Ask the humans…)",
          # The window's save dialog asks before replacing a campaign; its mapping file beside it is never replaced.
          "overwrite": "another name (the save dialog)",
          # The window offers only human scores there; a metric as the humans is bleu-score's alone.
          "meta_eval_human_is_metric": "a metric as the humans (the command line only: Humans ▸ Scores lists human "
                                       "scores)"}
OPEN, SETTINGS = "File ▸ Open", "Scoring settings"


def _value(value: str | None) -> str:
    """A value a message gives with its field, unless it only holds the field's place (``SRC TGT``, ``NAME``)."""
    return f" {value}" if value and not value.replace(" ", "").isupper() else ""


def window_word(name: str, value: str | None) -> str:
    """How the window says the field ``name`` (with ``value``)."""
    key, _, setting = name.partition(".")
    if setting and key in KEYS:
        fam = family(key)
        label = next((f.setting.label for f in fam.config.fields() if f.name == setting), setting)
        return f"{label[:1].upper()}{label[1:]}{_value(value)} ({fam.title}, {SETTINGS})"
    if name in FIELDS:
        return f"{FIELDS[name]}{_value(value)} ({OPEN})"
    if name == "metrics" and value:  # a metric to score: a family's group in the settings
        return f"{value} ({SETTINGS})"
    return _OTHER.get(name, name) + _value(value)


def in_window_words(text: str) -> str:
    """``text`` (a message or note of the core) with every field in the window's words."""
    return worded(text, window_word)


def in_slice_box_words(text: str) -> str:
    """A message about a slice expression as the slice box says it, under the box: without the field's name at its
    start (it is this box), the box itself named where the message names it elsewhere."""
    text = re.sub(r"^⟦where(?:=[^⟧]*)?⟧:\s*", "", text)
    return worded(text, lambda name, value: "the slice box" if name == "where" else window_word(name, value))


def raw(exc: BaseException) -> str:
    """An error's message with its fields unworded (the window or a command words them where it shows it)."""
    return exc.raw if isinstance(exc, InputError) else str(exc)
