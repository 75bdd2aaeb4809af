"""The settings of segment scores given from outside: a column of a scores file is the metric (read onto the systems
and scored by :mod:`.imported`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...errors import ConfigError, term
from ..family import Advice, Family

if TYPE_CHECKING:
    from ...inputs.score_files import ImportedColumn


@dataclass(frozen=True)
class ImportedConfig:
    """A column of a score file: the metric's name (the column's), whether higher is better, and the file."""

    name: str
    higher_is_better: bool = True
    source: str = ""  # the file's name, for the signature

    @property
    def key(self) -> str:
        return self.name

    def for_other_files(self) -> ImportedConfig:
        return self

    def for_target_language(self, languages: tuple[str, str] | None, declared: str = "") -> tuple[ImportedConfig, str]:
        return self, ""

    def for_test_set(self, test_set: tuple[str, str] | None) -> ImportedConfig:
        return self

    def advice(self, references: Sequence[Sequence[str]], language: str) -> Advice | None:
        return None

    def notice(self) -> str:
        return ""

    def beside(self, metrics: Sequence[Any]) -> ImportedConfig:
        return self

    def non_default(self) -> list[str]:
        return []

    @property
    def significance(self) -> bool:
        return True

    def why_no_tests(self) -> str:
        return ""

    def to_dict(self) -> dict[str, Any]:
        return {"metric": self.name, "higher_is_better": self.higher_is_better, "source": self.source}

    def validated(self) -> ImportedConfig:
        if not self.name:
            raise ConfigError("an imported metric needs a name")
        return self


def with_column_from(metrics: Sequence[Any], columns: Sequence[str], source: str) -> tuple[Any, ...]:
    """``metrics`` (a run's settings) with each imported column of ``columns`` (as a review's ESA scores join it)
    and every new one read from ``source`` too: the signature names every file its scores come from."""
    out = [m if not isinstance(m, ImportedConfig) or m.name not in columns or source in m.source.split(" + ")
           else ImportedConfig(m.name, m.higher_is_better, f"{m.source} + {source}" if m.source else source)
           for m in metrics]
    known = {m.key for m in metrics}
    return (*out, *(ImportedConfig(c, True, source) for c in columns if c not in known))


RESERVED = frozenset({"bleu", "chrf", "ter", "chrf2", "chrf2++"})


def imported_configs(columns: Sequence[ImportedColumn], lower_better: Sequence[str] = ()) -> list[ImportedConfig]:
    """The metrics of imported score columns; ``lower_better``: the names whose lower scores are better (each
    must be one of the columns), beside those the file says are (MetricX's error scores)."""
    names = [c.name for c in columns]
    unknown = [n for n in lower_better if n not in names]
    if unknown:
        raise ConfigError(f"{term('lower_better')} {' '.join(unknown)}: not a column of the scores files "
                          f"({', '.join(names) or 'none read'})")
    for name in names:
        if name.lower() in RESERVED:
            raise ConfigError(f"a scores column is named {name!r}, as a built-in metric: rename the column")
    return [ImportedConfig(c.name, c.name not in lower_better and not c.lower_better, c.path.name) for c in columns]


def choose_imported(configs: Sequence[ImportedConfig], wanted: Sequence[str] | None,
                    built_in: Sequence[str] = ()) -> tuple[ImportedConfig, ...]:
    """The imported metrics ``-m`` names, in its order (every one of ``configs`` when it names none: None);
    :class:`InputError` for a name that is neither ``built_in`` nor a column read."""
    if wanted is None:
        return tuple(configs)
    by_name = {c.name: c for c in configs}
    unknown = [n for n in wanted if n not in by_name and n not in built_in]
    if unknown:
        columns = f", or a column of {term('scores')}: {', '.join(by_name)}" if by_name else f" (or a column of {term('scores')})"
        raise ConfigError(f"{term('metrics')}: unknown metric {', '.join(unknown)}; choose {', '.join(built_in)}{columns}")
    return tuple(by_name[n] for n in wanted if n in by_name)


# Not chosen by a name of its own: a column of a scores file is the metric (see imported_configs).
FAMILY = Family("imported", "Imported scores", ImportedConfig, "imported.imported", needs_reference=False)
