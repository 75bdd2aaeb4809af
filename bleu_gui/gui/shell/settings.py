"""Every persisted setting in one place: typed getters and setters over QSettings."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from ...core import BleuConfig, InputError, MetricConfig
from ...core.inputs.untrusted_json import parse
from ...core.metrics.registry import in_window, metrics_from_list, metrics_to_list
from ...core.output.sessions import Session, session_from_dict

ORGANISATION, APPLICATION = "bleu-gui", "bleu-gui"
MAX_RECENT = 8


class Settings:
    """Typed access to the application's QSettings (window state, scoring settings, recent files).

    A stored value that cannot be read (a hand-edited or outdated file) never
    stops the window: its default is used, the value is removed from the file,
    and :attr:`problems` says which it was, so the window can say so once.
    """

    def __init__(self, qsettings: QSettings | None = None):
        self._s = qsettings or QSettings(ORGANISATION, APPLICATION)
        self.problems: list[str] = []
        self.metrics()  # read every stored value once now: what cannot be read is reported and removed
        self.recent()

    def sync(self) -> None:
        self._s.sync()

    # -- window --------------------------------------------------------------
    def geometry(self, screen: str) -> QByteArray | None:
        """The window's last geometry on ``screen`` (its name and size), else the last on any screen."""
        for key in (f"window/screen_geometry/{_key(screen)}", "window/geometry"):
            value = self._s.value(key)
            if isinstance(value, QByteArray):
                return value
        return None

    def set_geometry(self, screen: str, value: QByteArray) -> None:
        self._s.setValue(f"window/screen_geometry/{_key(screen)}", value)

    def splitter(self, name: str) -> QByteArray | None:
        value = self._s.value(f"window/splitter/{name}")
        return value if isinstance(value, QByteArray) else None

    def set_splitter(self, name: str, value: QByteArray) -> None:
        self._s.setValue(f"window/splitter/{name}", value)

    def folders(self) -> dict[str, str]:
        """The folder last used for each kind of file (report, figure, inputs, …); what cannot be read is dropped."""
        try:
            value = parse(str(self._s.value("window/folders", "{}")), "the settings' folders")
        except InputError:
            return {}
        return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}

    def set_folders(self, folders: dict[str, str]) -> None:
        self._s.setValue("window/folders", json.dumps(folders, ensure_ascii=False))

    def qa_checks_off(self) -> frozenset[str]:
        """The QA checks the user switched off (Tools ▸ QA checks); what is no check is dropped."""
        from ...core.analysis.qa import CHECKS

        value = self._s.value("qa/off", "")
        names = value.split(",") if isinstance(value, str) else []
        return frozenset(n for n in names if n in CHECKS)

    def set_qa_checks_off(self, checks: frozenset[str]) -> None:
        self._s.setValue("qa/off", ",".join(sorted(checks)))

    def qa_decisions_file(self, system: Path) -> Path | None:
        """The QA decisions file first used for the system file ``system`` (None: none yet): a review started
        later under another name never moves a run's false positives away."""
        value = self._s.value(f"qa/decisions/{_key_of(system)}", "")
        return Path(value) if isinstance(value, str) and value else None

    def set_qa_decisions_file(self, system: Path, decisions: Path) -> None:
        self._s.setValue(f"qa/decisions/{_key_of(system)}", str(decisions))

    def rater(self) -> str:
        """The reviewer's name, as marks are signed (asked once; '' until given)."""
        value = self._s.value("review/rater", "")
        return value.strip() if isinstance(value, str) else ""

    def set_rater(self, name: str) -> None:
        self._s.setValue("review/rater", name.strip())

    # -- scoring -------------------------------------------------------------
    def _problem(self, what: str) -> None:
        if what not in self.problems:
            self.problems.append(what)

    def metrics(self) -> tuple[MetricConfig, ...]:
        """The metrics and every one of their settings the user last chose in the window (BLEU's first); BLEU's
        defaults for what cannot be read, said in :attr:`problems`. Files written before every field was kept
        (BLEU's seven settings apart, chrF's and TER's in a list) are read as they are."""
        raw = self._s.value("scoring/metrics", "")
        if raw:
            try:
                found = metrics_from_list(parse(str(raw), "the scoring settings"))
            except (InputError, ValueError, TypeError) as exc:
                self._problem(f"the scoring settings ({exc})")
                self._s.remove("scoring/metrics")
                return in_window(())
            return in_window(found)
        return (self._legacy_bleu(), *self._legacy_others())

    def set_metrics(self, metrics: tuple[MetricConfig, ...]) -> None:
        """Remember the metrics and every field of their settings, but not what followed the files they were
        chosen for (BLEU's tokenizer, TER's Asian support: see ``for_other_files``)."""
        self._s.setValue("scoring/metrics", json.dumps(metrics_to_list([m.for_other_files() for m in metrics])))
        for legacy in ("scoring/variant", "scoring/tokenizer", "scoring/lowercase", "scoring/smooth_method",
                       "scoring/smooth_value", "scoring/max_order", "scoring/nltk_smoothing", "scoring/other_metrics"):
            self._s.remove(legacy)

    def _legacy_bleu(self) -> BleuConfig:
        s = self._s
        fields: dict[str, Callable[[Any], object]] = {
            "variant": str, "lowercase": _bool, "smooth_method": str,
            "smooth_value": _optional_float, "max_order": int, "nltk_smoothing": int}
        values: dict[str, Any] = {}  # each read by its field's reader, so BleuConfig gets the types it wants
        for name, read in fields.items():
            key = f"scoring/{name}"
            if not s.contains(key):
                continue
            try:
                values[name] = read(s.value(key))
            except (TypeError, ValueError):
                self._problem(f"the scoring setting {name} ({s.value(key)!r})")
                s.remove(key)
        try:
            return BleuConfig(**values).validated()
        except InputError as exc:
            self._problem(f"the scoring settings ({exc})")
            s.remove("scoring")
            return BleuConfig()

    def _legacy_others(self) -> tuple[MetricConfig, ...]:
        raw = self._s.value("scoring/other_metrics", "")
        if not raw:
            return ()
        try:
            return metrics_from_list(parse(str(raw), "the metrics beside BLEU"))
        except (InputError, ValueError, TypeError) as exc:
            self._problem(f"the metrics beside BLEU ({exc})")
            self._s.remove("scoring/other_metrics")
            return ()

    # -- recent runs -------------------------------------------------------------
    def recent(self) -> list[Session]:
        """Recent runs, newest first, as whole sessions (files, labels, B, encoding, settings)."""
        out = []
        unreadable = 0
        size = self._s.beginReadArray("recent")
        for i in range(size):
            self._s.setArrayIndex(i)
            raw = self._s.value("session", "")
            try:
                if raw:
                    out.append(session_from_dict(parse(str(raw), f"recent run {i + 1}"), f"recent run {i + 1}"))
                else:  # an entry written before sessions: files only
                    systems = _paths(self._s.value("systems", []) or self._s.value("candidate", []))
                    refs = _paths(self._s.value("references", []))
                    if systems and refs:
                        out.append(Session(systems, refs))
            except (InputError, ValueError, TypeError) as exc:  # dropped, never a reason not to start
                unreadable += 1
                self._problem(str(exc) if isinstance(exc, InputError) else f"recent run {i + 1} ({exc})")
        self._s.endArray()
        if unreadable:
            self._write_recent(out)  # said once: the entries that cannot be read are gone from the file
        return out

    def add_recent(self, session: Session) -> None:
        # The same files opened again replace their older entry, whatever the settings were then.
        files = (session.systems, session.references)
        self._write_recent([session] + [s for s in self.recent() if (s.systems, s.references) != files])

    def remove_recent(self, session: Session) -> None:
        self._write_recent([s for s in self.recent() if s != session])

    def _write_recent(self, sessions: list[Session]) -> None:
        self._s.remove("recent")
        self._s.beginWriteArray("recent", min(len(sessions), MAX_RECENT))
        for i, item in enumerate(sessions[:MAX_RECENT]):
            self._s.setArrayIndex(i)
            self._s.setValue("session", json.dumps(item.to_dict(), ensure_ascii=False))
        self._s.endArray()


def _key(text: str) -> str:
    """``text`` as one QSettings key (a slash would open a group)."""
    return "".join(c if c.isalnum() or c in "-_.@x" else "_" for c in text)


def _paths(value: object) -> list[str]:
    """A stored list of paths (QSettings gives a lone string for a one-element list)."""
    if isinstance(value, str):
        return [value] if value else []
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else []


def _bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).lower()
    if text in ("1", "true", "yes"):
        return True
    if text in ("0", "false", "no"):
        return False
    raise ValueError(f"not a yes/no value: {value!r}")


def _optional_float(value: object) -> float | None:
    if value in ("", None):
        return None
    if not isinstance(value, (str, int, float)):
        raise TypeError(f"not a number: {value!r}")
    return float(value)


def _key_of(path: Path) -> str:
    """A settings key for a file's path (its slashes would make groups): a hash of the resolved path."""
    import hashlib

    return hashlib.sha256(str(path.resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:32]
