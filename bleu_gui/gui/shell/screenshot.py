"""``bleu-gui … --screenshot OUT.png``: render the window once its first run is shown, write OUT.png and OUT.json
(what produced the numbers in it), and exit; bad input is one line on stderr and exit status 2, never a dialog.

The README's screenshots are made this way, so they always show what the app shows now.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QIODevice,
    QMessageLogContext,
    QObject,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)

from ...cli.screenshot_order import ScreenshotOrder
from ...core import InputError
from ...core.errors import ExportError
from ...core.json_text import strict_dumps
from ...core.output.exports import write_atomic
from ...core.output.provenance import provenance
from ..window_words import window_word

if TYPE_CHECKING:
    from .main_window import MainWindow

def quiet_offscreen_notes() -> None:
    """Keep stderr to our one line: the offscreen platform's notes about features it lacks are dropped."""
    def handler(_kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
        if not message.startswith("This plugin does not support"):
            print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


_GIVE_UP_MS = 600_000  # a run that never shows (a hung worker) still ends the command


class Screenshot(QObject):
    """Takes the window's picture after its first complete run; ``finish(status)`` ends the application."""

    def __init__(self, window: MainWindow, order: ScreenshotOrder, finish: Callable[[int], None],
                 say: Callable[[str], str]):
        """``say``: a message of the core (its fields unworded) in the command's words."""
        super().__init__(window)
        self.window, self.order, self.finish, self.say = window, order, finish, say
        self.done = False
        window.on_error = self.fail  # one line on stderr, no dialog
        window.run_actions.confirm = self.told  # the command's flags named the endpoint: said, not asked
        window.run_changed.connect(self.on_run_shown)
        QTimer.singleShot(_GIVE_UP_MS, lambda: self.fail("no run was shown within 10 minutes"))

    def fail(self, message: str) -> None:
        if self.done:
            return
        self.done = True
        print(f"bleu-gui: error: {self.say(message)}", file=sys.stderr)
        self.finish(2)

    def told(self, notice: str) -> bool:
        """A notice before scoring (the LLM judge's texts going to another host), said as bleu-score says it."""
        print(f"bleu-gui: note: {self.say(notice)}", file=sys.stderr, flush=True)
        return True

    def on_run_shown(self, _run: object) -> None:
        if self.done:
            return
        self.window.run_changed.disconnect(self.on_run_shown)
        try:
            self._show_what_was_asked()
        except InputError as exc:
            self.fail(exc.raw)
            return
        self._when_settled(self._take)

    def _show_what_was_asked(self) -> None:
        w, order = self.window, self.order
        run = w.controller.run
        assert run is not None
        if order.metric is not None:
            keys = [m.key.lower() for m in run.metrics]
            names = [m.name.lower() for m in run.metrics]
            wanted = order.metric.lower()
            if wanted not in keys and wanted not in names:
                raise InputError(f"--show-metric {order.metric}: the run has {', '.join(m.key for m in run.metrics)}")
            w.controller.set_metric(keys.index(wanted) if wanted in keys else names.index(wanted))
        if order.sentence is not None:
            if not 1 <= order.sentence <= run.n_sentences:
                raise InputError(f"--sentence {order.sentence}: the run has sentences 1..{run.n_sentences}")
            w.controller.set_sentence(order.sentence - 1)
        if order.tab == "compare":
            if run.comparison is None:
                raise InputError("--tab compare needs two or more systems; this run has one")
            w.tabs.setCurrentIndex(1)
        elif order.tab == "documents":
            if run.context.docs is None:
                raise InputError("--tab documents needs inputs with document ids (WMT XML, SGML, a TSV doc "
                                 "column, or --docs FILE)")
            w.tabs.setCurrentIndex(0)
            w.inspect.sentences.list_tabs.setCurrentIndex(1)

    def _when_settled(self, then: Callable[[], None], turns: int = 3) -> None:
        """``then`` once the sentence and its charts are drawn (they follow on later turns of the event loop)."""
        pending = self.window.inspect.sentences.opening_pending or self.window.inspect.detail.charts_pending
        if pending or turns > 0:
            QTimer.singleShot(0, lambda: self._when_settled(then, turns - (0 if pending else 1)))
            return
        then()

    def _take(self) -> None:
        w, order = self.window, self.order
        run = w.controller.run
        assert run is not None
        if (w.width(), w.height()) != order.size:  # never a picture of another size than asked, unsaid
            self.fail(f"the window is {w.width()}×{w.height()}, not the {order.size[0]}×{order.size[1]} asked: its "
                      "screen is smaller")
            return
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        w.grab().save(buffer, "PNG")
        buffer.close()
        view = {"size": [w.width(), w.height()], "tab": order.tab, "sentence": order.sentence,
                "metric": run.metrics[w.controller.metric].name,
                "b": run.systems[w.controller.b].name if run.comparison is not None else None}
        try:
            write_atomic(order.path, bytes(data.data()), run.input_paths())
            write_atomic(order.json_path, strict_dumps(provenance(run, view, window_word)) + "\n",
                         run.input_paths())
        except ExportError as exc:
            self.fail(str(exc))
            return
        self.done = True
        print(f"bleu-gui: wrote {order.path} ({w.width()}×{w.height()}) and {order.json_path}", file=sys.stderr)
        self.finish(0)
