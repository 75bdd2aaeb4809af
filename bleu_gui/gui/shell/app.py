"""``bleu-gui``: open the window, optionally on files or the bundled demo data."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ...cli.arguments import metric_configs, worded_error, words
from ...cli.window_arguments import WindowOptions, build_window_parser, window_options
from ...core import InputError, MetricConfig
from ...core.errors import term, worded
from ...core.metrics.registry import in_window
from ...core.where import check_where
from ..state import OpenChoice
from .startup import picture_platform, startup_problem

if TYPE_CHECKING:
    from PySide6.QtGui import QIcon


def app_icon() -> QIcon:
    """The application's icon (shipped in the package: the installed app reads it, not the source tree)."""
    from importlib.resources import files

    from PySide6.QtGui import QIcon

    return QIcon(str(files("bleu_gui") / "icons" / "bleu-gui.svg"))


def initial_metrics(options: WindowOptions, saved: tuple[MetricConfig, ...]) -> tuple[MetricConfig, ...] | None:
    """The metrics and settings the flags ask for, on top of the saved ones (None when no flag was given); the
    families the window always scores are among them."""
    if not options.scoring.any_given:
        return None
    return in_window(metric_configs(options.scoring, base=saved, columns_later=True))


def _desktop(install: bool) -> int:
    """``--install-desktop`` / ``--uninstall-desktop`` (no display, no Qt: see :mod:`.desktop_entry`)."""
    from .desktop_entry import default_prefix, this_command
    from .desktop_entry import install as install_entry
    from .desktop_entry import uninstall as uninstall_entry

    prefix = default_prefix()
    if install:
        command = this_command()
        install_entry(prefix, command)
        print(f"bleu-gui: installed the desktop entry, icon and file types in {prefix} (they run {command})")
    else:
        uninstall_entry(prefix)
        print(f"bleu-gui: removed the desktop entry, icon and file types from {prefix}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_window_parser()
    args = parser.parse_args(argv)
    if args.install_desktop or args.uninstall_desktop:
        return _desktop(args.install_desktop)
    try:
        options = window_options(args)
        check_where(options.where)
    except InputError as exc:
        parser.error(worded_error(parser, exc))
    if options.screenshot is None:
        return _open_window(parser, options, None)
    # A picture's screen and its fresh settings are files of their own, removed when the picture is taken.
    with tempfile.TemporaryDirectory(prefix="bleu-gui-picture-") as scratch:
        # No window pops up, and the picture has the asked size on any platform.
        os.environ["QT_QPA_PLATFORM"] = picture_platform(*options.screenshot.size, Path(scratch))
        return _open_window(parser, options, Path(scratch))


def _open_window(parser: argparse.ArgumentParser, options: WindowOptions, scratch: Path | None) -> int:
    """Show the window (or take its picture, with ``scratch`` a folder for the picture's own settings) until the
    app quits; its exit status."""
    problem = startup_problem()
    if problem is not None:
        print(f"bleu-gui: {problem}", file=sys.stderr)
        return 2
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow
    from .screenshot import Screenshot, quiet_offscreen_notes
    from .settings import Settings

    app = QApplication.instance() or QApplication(sys.argv[:1])
    if options.screenshot is not None:
        quiet_offscreen_notes()  # before the window exists: building it already draws these notes
    app.setApplicationName("bleu-gui")
    app.setOrganizationName("bleu-gui")
    QApplication.setDesktopFileName("bleu-gui")  # the desktop entry --install-desktop installs (its icon, in a dock)
    QApplication.setWindowIcon(app_icon())
    # A screenshot starts from a fresh settings file: nothing from an earlier session changes its numbers.
    settings = Settings() if scratch is None else Settings(
        QSettings(str(scratch / "settings.ini"), QSettings.Format.IniFormat))
    try:
        metrics = initial_metrics(options, settings.metrics())
    except InputError as exc:
        parser.error(worded_error(parser, exc))
    window = MainWindow(settings, encoding=options.encoding, config=metrics)
    if options.screenshot is not None:
        say: Callable[[str], str] = lambda message: worded(message, words(parser))  # noqa: E731 - the flags' words
        Screenshot(window, options.screenshot, app.exit, say)
        window.resize(*options.screenshot.size)
    window.show()
    if options.request is not None:
        window.run_actions.open_inputs(OpenChoice(options.request, options.labels, options.where,
                                                  options.imported_wanted()), carry=True)
    elif options.references_asked is not None:  # a system file alone (opened from a file manager): ask for the rest
        dialog = window.file_open.ask(OpenChoice(options.references_asked, options.labels, options.where))
        dialog.show_problem(f"Choose the {term('references')} of this system output: files, a folder, or one WMT "
                            "XML file")
    status = app.exec()
    # QSettings writes its changes on a later turn of the event loop, or when it is destroyed: a picture refused
    # in the turn its run was shown would write them after its scratch folder had gone, making the folder again.
    settings.sync()
    return status


if __name__ == "__main__":
    sys.exit(main())
