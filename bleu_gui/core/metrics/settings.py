"""A metric's settings describe themselves, as sacreBLEU derives a metric's flags from its constructor's arguments.

Each field of a settings dataclass carries a :class:`Setting` (its label, help, flag, range or choices, whether it
follows the files it was chosen for). From these alone come the command-line flags (``--chrf-word-order``), the
window's settings group, the badges of settings that are not the defaults, and one JSON form for sessions, the
settings file and provenance (:meth:`MetricSettings.to_dict`, :meth:`MetricSettings.from_dict`). Adding a setting
is adding a field.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from ..errors import ConfigError
from .family import Advice

S = TypeVar("S", bound="MetricSettings")


@dataclass(frozen=True)
class Setting:
    """How one field of a metric's settings is named, offered and checked (see the module).

    ``choices`` and ``low``/``high`` bound the value (the command line names the field after its family and its
    name: ``--chrf-word-order``); ``cli``/``window``: whether the command line and the window's settings
    group offer it (NLTK's smoothing parameters are kept in sessions only); ``file_bound``: it follows the files it
    was chosen for (a tokenizer, TER's Asian support) and is neither remembered nor carried to other files;
    ``applies``: whether the other settings read it (a BLEU variant that has no smoothing method ignores one).
    """

    label: str
    help: str
    choices: tuple[Any, ...] | None = None
    low: float | None = None
    high: float | None = None
    metavar: str | None = None
    cli: bool = True
    window: bool = True
    file_bound: bool = False
    applies: Callable[[Any], bool] | None = None
    none_label: str = "(default)"  # how the window says "not set" for a setting that may be None
    display: Callable[[Any], str] | None = None  # how the window shows a choice (NLTK's 3 as "method3")


def setting(default: Any, **kwargs: Any) -> Any:
    """A dataclass field with ``default`` and the :class:`Setting` of ``kwargs``."""
    if isinstance(default, (list, dict, set)):
        raise TypeError("settings are immutable values")
    return field(default=default, metadata={"setting": Setting(**kwargs)})


@dataclass(frozen=True)
class SettingField:
    """A field of a settings class with its :class:`Setting`, its type and its default."""

    name: str
    setting: Setting
    kind: type          # bool, int, float, str, or tuple (of floats)
    optional: bool      # None is a value
    default: Any


def _kind(annotation: Any) -> tuple[type, bool]:
    """(the value's type, whether None is allowed) of a field's annotation."""
    args = typing.get_args(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        kind, _ = _kind(rest[0])
        return kind, True
    if origin is tuple:
        return tuple, False
    return annotation, False


_FIELDS: dict[type, tuple[SettingField, ...]] = {}


@dataclass(frozen=True)
class MetricSettings:
    """What every metric's settings dataclass has (see the module). Subclasses set :attr:`key`, the family's
    name on the command line and in JSON, and implement :meth:`validated`."""

    key: ClassVar[str] = ""
    badge: ClassVar[str] = ""  # the metric's name before its settings' labels in a list of several metrics' ("TER")
    # Fields that change how the work is done, never a number (a cache, a timeout, requests at once): a change of
    # them computes nothing anew.
    work_only: ClassVar[tuple[str, ...]] = ()

    # -- description ----------------------------------------------------------------------------------------
    @classmethod
    def fields(cls) -> tuple[SettingField, ...]:
        """Every field with its :class:`Setting`, in the dataclass's order (worked out once per class: reading the
        type hints is most of the cost of every badge, settings group and flag)."""
        found = _FIELDS.get(cls)
        if found is None:
            hints = typing.get_type_hints(cls)
            found = tuple(SettingField(f.name, f.metadata["setting"], *_kind(hints[f.name]), f.default)
                          for f in dataclasses.fields(cls))
            _FIELDS[cls] = found
        return found

    def applies(self, name: str) -> bool:
        """Whether these settings read the field ``name`` (see :attr:`Setting.applies`)."""
        found = next(f for f in self.fields() if f.name == name)
        return found.setting.applies is None or bool(found.setting.applies(self))

    @property
    def significance(self) -> bool:
        """Whether sacreBLEU's paired tests and confidence intervals apply to the metric these settings make."""
        return True

    def why_no_tests(self) -> str:
        """Why they do not (see :attr:`significance`), for a message."""
        return ""

    def why_unread(self, name: str) -> str:
        """Why the field ``name`` is not read with these settings (see :meth:`applies`), for a message."""
        return "is not read with these settings"

    def changes_numbers(self, other: MetricSettings) -> bool:
        """Whether these settings give other numbers than ``other`` (the same family's): a field other than
        :attr:`work_only` differs."""
        return any(getattr(self, f.name) != getattr(other, f.name) for f in self.fields()
                   if f.name not in self.work_only)

    def non_default(self) -> list[str]:
        """A short label for every setting that differs from its default and is read (empty: all default)."""
        default = type(self)()
        out = []
        for f in self.fields():
            value = getattr(self, f.name)
            if value != getattr(default, f.name) and self.applies(f.name):
                label = f"{self.badge} {f.setting.label}" if self.badge else f.setting.label
                out.append(label if isinstance(value, bool) else f"{label}: {shown(value)}")
        return out

    # -- what changes with the files ---------------------------------------------------------------------------
    def for_other_files(self: S) -> S:
        """These settings for files other than those they were chosen for: every file-bound setting back to its
        default (see :attr:`Setting.file_bound`)."""
        default = type(self)()
        bound = {f.name: getattr(default, f.name) for f in self.fields() if f.setting.file_bound}
        return dataclasses.replace(self, **bound) if bound else self

    def for_target_language(self: S, languages: tuple[str, str] | None, declared: str = "") -> tuple[S, str]:
        """The settings the declared (source, target) ``languages`` choose where none were given, and a note saying
        so ('' when they chose nothing); ``declared``: who declared them."""
        return self, ""

    def for_test_set(self: S, test_set: tuple[str, str] | None) -> S:
        """These settings for a run read from a test set by name (sacreBLEU's ``-t NAME -l PAIR``): a family whose
        signature names it (``test:wmt14/full|lang:de-en``, as sacreBLEU writes it) keeps it in its ``test`` field."""
        if "test" not in {f.name for f in self.fields()}:
            return self
        named: dict[str, Any] = {"test": "|".join(test_set) if test_set else ""}
        return dataclasses.replace(self, **named)

    def beside(self: S, metrics: Sequence[Any]) -> S:
        """These settings as the run's other metrics ``metrics`` complete them (the LLM judge takes MQM's
        weights); themselves for most."""
        return self

    def notice(self) -> str:
        """What the user must know before these settings are scored ('' for nothing): the LLM judge's texts leaving
        this machine. The command line prints it before scoring; the window asks before it scores."""
        return ""

    def advice(self, references: Sequence[Sequence[str]], language: str) -> Advice | None:
        """What sacreBLEU recommends for these references instead of these settings (None: nothing)."""
        return None

    def check_given(self, given: dict[str, Any]) -> None:
        """Refuse settings given together that contradict each other (:class:`ConfigError`); ``given``: the fields
        given on the command line with their values."""

    def hint(self) -> str:
        """A line the window's settings group shows under the fields ('' for none)."""
        return ""

    def validated(self: S) -> S:
        """These settings, checked (raise :class:`ConfigError`) and normalised."""
        raise NotImplementedError

    # -- one JSON form ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """``{"metric": key, ...every field}``: the JSON form of sessions, the settings file and provenance."""
        out: dict[str, Any] = {"metric": self.key}
        for f in self.fields():
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls: type[S], data: dict[str, Any]) -> S:
        """The settings :meth:`to_dict` wrote, every value checked against its field's type; fields left out take
        their defaults (a file written before the field existed); :class:`ConfigError` says what is wrong."""
        known = {f.name: f for f in cls.fields()}
        values = {k: v for k, v in data.items() if k != "metric"}
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ConfigError(f"{cls.key}: unknown setting(s) {', '.join(unknown)}")
        checked = {name: _checked(cls.key, known[name], value) for name, value in values.items()}
        try:
            return cls(**checked).validated()
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{cls.key}: {exc}") from None


def shown(value: Any) -> str:
    """A setting's value as badges and messages write it."""
    if isinstance(value, tuple):
        return ",".join(shown(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _checked(family: str, f: SettingField, value: Any) -> Any:
    """``value`` as field ``f`` holds it, or :class:`ConfigError` naming the field and what it must be."""
    if value is None and f.optional:
        return None
    kind = f.kind
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{family}: {f.name} must be true or false, got {value!r}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{family}: {f.name} must be a whole number, got {value!r}")
        return value
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ConfigError(f"{family}: {f.name} must be a number, got {value!r}")
        return float(value)
    if kind is tuple:
        if not isinstance(value, (list, tuple)) or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            raise ConfigError(f"{family}: {f.name} must be a list of numbers, got {value!r}")
        return tuple(float(v) for v in value)
    if not isinstance(value, str):
        raise ConfigError(f"{family}: {f.name} must be text, got {value!r}")
    return value


def test_fields(test: str) -> list[str]:
    """sacreBLEU's signature fields of a test set read by name (``wmt14/full|de-en`` → ``test:wmt14/full``,
    ``lang:de-en``); none for files given by path."""
    name, _, pair = test.partition("|")
    return [f"test:{name}", f"lang:{pair}"] if name else []
