"""Every persisted setting in one place: typed getters and setters over QSettings."""

from __future__ import annotations

import json

from PySide6.QtCore import QByteArray, QSettings

from ..core import BleuConfig, InputError
from ..core.sessions import Session, session_from_dict

ORGANISATION, APPLICATION = "bleu-gui", "bleu-gui"
MAX_RECENT = 8


class Settings:
    """Typed access to the application's QSettings (window state, scoring settings, recent files)."""

    def __init__(self, qsettings: QSettings | None = None):
        self._s = qsettings or QSettings(ORGANISATION, APPLICATION)

    def sync(self) -> None:
        self._s.sync()

    # -- window --------------------------------------------------------------
    def geometry(self) -> QByteArray | None:
        value = self._s.value("window/geometry")
        return value if isinstance(value, QByteArray) else None

    def set_geometry(self, value: QByteArray) -> None:
        self._s.setValue("window/geometry", value)

    def splitter(self, name: str) -> QByteArray | None:
        value = self._s.value(f"window/splitter/{name}")
        return value if isinstance(value, QByteArray) else None

    def set_splitter(self, name: str, value: QByteArray) -> None:
        self._s.setValue(f"window/splitter/{name}", value)

    # -- scoring -------------------------------------------------------------
    def config(self) -> BleuConfig:
        """The saved scoring settings; the defaults when the file holds values that cannot be read."""
        s, d = self._s, BleuConfig()
        try:
            tokenizer = s.value("scoring/tokenizer", "") or None
            value = s.value("scoring/smooth_value", "")
            cfg = BleuConfig(
                variant=str(s.value("scoring/variant", d.variant)),
                tokenizer=str(tokenizer) if tokenizer else None,
                lowercase=_bool(s.value("scoring/lowercase", d.lowercase)),
                smooth_method=str(s.value("scoring/smooth_method", d.smooth_method)),
                smooth_value=float(value) if value not in ("", None) else None,
                max_order=int(s.value("scoring/max_order", d.max_order)),
                nltk_smoothing=int(s.value("scoring/nltk_smoothing", d.nltk_smoothing)),
            )
            return cfg.validated()
        except (TypeError, ValueError):  # a hand-edited or outdated settings file must not stop the app
            return d

    def set_config(self, cfg: BleuConfig) -> None:
        s = self._s
        s.setValue("scoring/variant", cfg.variant)
        s.setValue("scoring/tokenizer", cfg.tokenizer or "")
        s.setValue("scoring/lowercase", cfg.lowercase)
        s.setValue("scoring/smooth_method", cfg.smooth_method)
        s.setValue("scoring/smooth_value", "" if cfg.smooth_value is None else cfg.smooth_value)
        s.setValue("scoring/max_order", cfg.max_order)
        s.setValue("scoring/nltk_smoothing", cfg.nltk_smoothing)

    # -- recent runs -------------------------------------------------------------
    def recent(self) -> list[Session]:
        """Recent runs, newest first, as whole sessions (files, labels, B, encoding, settings)."""
        out = []
        size = self._s.beginReadArray("recent")
        for i in range(size):
            self._s.setArrayIndex(i)
            raw = self._s.value("session", "")
            try:
                if raw:
                    out.append(session_from_dict(json.loads(str(raw))))
                else:  # an entry written before sessions: files only
                    systems = _paths(self._s.value("systems", []) or self._s.value("candidate", []))
                    refs = _paths(self._s.value("references", []))
                    if systems and refs:
                        out.append(Session(systems, refs))
            except (InputError, ValueError):
                continue  # an unreadable entry is dropped, never a reason not to start
        self._s.endArray()
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


def _paths(value) -> list[str]:
    """A stored list of paths (QSettings gives a lone string for a one-element list)."""
    if isinstance(value, str):
        return [value] if value else []
    return [str(v) for v in value or []]


def _bool(value) -> bool:
    if isinstance(value, str):
        return value.lower() in ("1", "true", "yes")
    return bool(value)
