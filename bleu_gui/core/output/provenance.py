"""What produced a run's numbers, as one JSON object: inputs, systems with their scores and signatures, the
tokenizer and why, the versions. Written beside a screenshot so a figure can always be traced to its run."""

from __future__ import annotations

import platform
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from ..errors import plainly, worded
from ..metrics.registry import metrics_to_list
from ..run import Run
from .score_text import score_dict


def _version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def tokenizer_reason(run: Run, word: Callable[[str, str | None], str] = plainly) -> str:
    """Why BLEU tokenized as it did: picked by the declared target language, chosen in the settings, or the
    variant's default (``word``: how the front end words a setting)."""
    bleu = run.bleu
    if bleu is None:
        return ""
    name = bleu.config.tokenizer_name
    by_language = next((n for n in run.notes if n.startswith(f"tokenizer {name} for target language")), None)
    if by_language is not None:
        return worded(by_language, word)
    if bleu.config.tokenizer is not None:
        return f"{name}: chosen in the settings"
    return f"{name}: the {bleu.config.variant} variant's default"


def provenance(run: Run, view: dict[str, Any], word: Callable[[str, str | None], str] = plainly) -> dict[str, Any]:
    """The run's provenance; ``word``: how the front end words a setting or option; ``view``: what else the caller
    shows (window size, tab, sentence)."""
    source = run.context.source
    return {
        "app": {"name": "bleu-gui", "version": _version("bleu-gui"), "sacrebleu": _version("sacrebleu"),
                "python": platform.python_version()},
        "inputs": {"systems": [str(s.file.path) for s in run.systems],
                   "system_fields": [s.file.field for s in run.systems],
                   "references": [str(r.path) for r in run.references], "reference_names": run.reference_names,
                   "source": str(source.path) if source is not None else None, "encoding": run.encodings,
                   "target_language": run.context.target_language or None, "sentences": run.n_sentences},
        "slice": run.slice.summary if run.slice is not None else None,
        "tokenizer": tokenizer_reason(run, word),
        "settings": metrics_to_list(run.config.metrics),
        "systems": [score_dict(result.corpus, system.name) for system in run.systems for result in system.results],
        "notes": [worded(note, word) for note in run.notes],
        "view": view,
    }
