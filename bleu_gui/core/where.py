"""``--where`` on a scored run: the segments a slice expression (:mod:`.analysis.slice_expr`) or ``KEY=VALUE``
keeps, from the run's metadata, word counts and sentence scores."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .analysis.slice_expr import Field, describe, evaluate, parse_where
from .errors import InputError, term
from .metrics.sacre_tokenizers import load_tokenizer
from .run import Run

_COUNTS = ("ref_words", "src_words", "hyp_words")
# A system's human error annotations: how many errors its raters marked in a segment (all raters), and the sets of
# severities, categories and raters there ('Major' in mqm_severities[B], 'rater3' in mqm_raters[B]).
_MQM_FIELDS = ("mqm_errors", "mqm_severities", "mqm_categories", "mqm_raters")


class RunFields:
    """Each field's values per segment of ``run`` (see :mod:`.analysis.slice_expr`), computed when asked."""

    def __init__(self, run: Run):
        self.run = run
        bleu = run.bleu
        self._tokenize = load_tokenizer(bleu.config.tokenizer_name if bleu is not None else "13a")

    def is_field(self, word: str) -> bool:
        return word in self.run.context.columns() or word in _COUNTS or word.startswith("delta_")

    def _system(self, name: str | None, field: Field) -> int:
        names = [s.name for s in self.run.systems]
        if name is None:
            raise InputError(f"{term('where')}: {field.name} needs a system: {field.name}[NAME] (systems: {', '.join(names)})")
        if name in names:
            return names.index(name)
        stems = [i for i, s in enumerate(self.run.systems) if name in (s.file.path.stem, s.file.field)]
        if len(stems) == 1:
            return stems[0]
        raise InputError(f"{term('where')}: no system {name!r} in {field} (systems: {', '.join(names)})")

    def _metric(self, key: str, field: Field) -> int:
        for k, m in enumerate(self.run.metrics):
            if key.lower() == m.key.lower() or key == m.name:
                return k
        have = ", ".join(m.key for m in self.run.metrics)
        columns = ", ".join(self.run.context.columns()) or "none"
        raise InputError(f"{term('where')}: no field {str(field)!r}: not a metadata column ({columns}), a word count "
                         f"({', '.join(_COUNTS)}) or a metric of the run ({have})")

    def _words(self, lines: Sequence[str]) -> np.ndarray:
        return np.asarray([len(self._tokenize(line).split()) for line in lines], dtype=np.float64)

    def __call__(self, field: Field) -> np.ndarray:
        run, name = self.run, field.name
        columns = run.context.columns()
        if name in columns and field.system is None:
            return np.asarray(columns[name], dtype=object)
        if name == "ref_words":
            if not run.references:
                raise InputError(f"{term('where')}: ref_words needs a reference, and the run has none (src_words counts "
                                 "the source's)")
            return self._words(run.references[0].lines)  # the first reference, under BLEU's tokenizer
        if name == "src_words":
            if run.context.source is None:
                raise InputError(f"{term('where')}: src_words needs the source ({term('source')}, or a structured input "
                                 "with one)")
            return self._words(run.context.source.lines)
        if name == "hyp_words":
            return self._words(run.systems[self._system(field.system, field)].file.lines)
        if name.startswith("delta_") and field.system is None:
            if len(run.systems) < 2:
                raise InputError(f"{term('where')}: {name} is the second system's score minus the first's: give two systems")
            k = self._metric(name[len("delta_"):], field)
            return run.systems[1].results[k].sentences - run.systems[0].results[k].sentences
        if name == "qa" and field.system is not None:
            return self._qa(self._system(field.system, field))
        if name in _MQM_FIELDS:
            return self._mqm(name, self._system(field.system, field))
        k = self._metric(name, field)
        return run.systems[self._system(field.system, field)].results[k].sentences

    def _mqm(self, name: str, system: int) -> np.ndarray:
        """A field of a system's human error annotations per segment (see :data:`_MQM_FIELDS`); an unrated segment's
        count and sets are missing (NaN, None): ``not 'Major' in mqm_severities[A]`` never selects it."""
        ratings = self.run.systems[system].file.annotations
        if ratings is None:
            raise InputError(f"{term('where')}: {name} needs human error annotations ({term('annotations', 'FILE')}, "
                             "or an MQM table as input)")
        if name == "mqm_errors":
            return np.asarray([len(r.errors) if r is not None else np.nan for r in ratings], dtype=np.float64)
        part = {"mqm_severities": lambda e: e.severity, "mqm_categories": lambda e: e.category}.get(name)
        out = np.empty(len(ratings), dtype=object)
        if part is None:  # mqm_raters
            out[:] = [frozenset(r.raters) if r is not None else None for r in ratings]
        else:
            out[:] = [frozenset(part(e) for e in r.errors) if r is not None else None for r in ratings]
        return out

    def _qa(self, system: int) -> np.ndarray:
        """The QA checks that flag each segment of a system (all checks but the glossary's)."""
        found: list[set[str]] = [set() for _ in range(self.run.n_sentences)]
        for flag in self.run.qa_flags(system):
            found[flag.segment].add(flag.check)
        out = np.empty(self.run.n_sentences, dtype=object)
        out[:] = [frozenset(f) for f in found]
        return out


def where_rows(run: Run, texts: Sequence[str]) -> tuple[list[int], str]:
    """The segments of ``run`` where every ``--where`` text holds, and how to say which; :class:`InputError`
    when an expression is bad or keeps no segment."""
    fields = RunFields(run)
    expr = parse_where(list(texts), fields.is_field)
    if expr is None:
        return list(range(run.n_sentences)), ""
    rows = np.flatnonzero(evaluate(expr, fields, run.n_sentences)).tolist()
    said = describe(expr)
    if not rows:
        raise InputError(f"no segment has {said}")
    return rows, said


def check_where(texts: Sequence[str]) -> None:
    """Refuse a malformed expression before any file is read (its fields are checked once the run is scored)."""
    parse_where(list(texts), lambda _word: False)
