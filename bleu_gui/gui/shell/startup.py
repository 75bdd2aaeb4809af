"""Before Qt starts: is there a screen, and can Qt's platform plugin load? (Qt itself aborts with exit 134.)"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

# The Debian/Ubuntu packages that hold the libraries Qt's xcb plugin needs.
DEBIAN_PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-image.so.0": "libxcb-image0", "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-randr.so.0": "libxcb-randr0", "libxcb-shape.so.0": "libxcb-shape0", "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon.so.0": "libxkbcommon0", "libEGL.so.1": "libegl1", "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1", "libdbus-1.so.3": "libdbus-1-3", "libX11-xcb.so.1": "libx11-xcb1",
}


def _missing_libraries(plugin: Path) -> list[str]:
    if not plugin.exists() or shutil.which("ldd") is None:
        return []
    out = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True).stdout
    return sorted({line.split()[0] for line in out.splitlines() if "not found" in line})


def _x_display_opens(display: str) -> bool:
    name = ctypes.util.find_library("X11")
    if name is None:
        return True  # cannot tell; let Qt try
    xlib = ctypes.CDLL(name)
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    handle = xlib.XOpenDisplay(display.encode())
    if handle:
        xlib.XCloseDisplay(ctypes.c_void_p(handle))
    return bool(handle)


def startup_problem(env: Mapping[str, str] = os.environ) -> str | None:
    """One line saying why the window cannot open here, or None."""
    if not sys.platform.startswith("linux"):
        return None
    platform = env.get("QT_QPA_PLATFORM") or ("xcb" if env.get("DISPLAY") else
                                              "wayland" if env.get("WAYLAND_DISPLAY") else "")
    if not platform:
        return ("no display: DISPLAY (X11) and WAYLAND_DISPLAY are unset; run it on a desktop, under Xvfb "
                "(xvfb-run bleu-gui), or without a screen with QT_QPA_PLATFORM=offscreen")
    if platform.split(":")[0] != "xcb":
        return None
    import PySide6

    plugin = Path(PySide6.__file__).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    missing = _missing_libraries(plugin)
    if missing:
        packages = sorted({DEBIAN_PACKAGES.get(lib, lib) for lib in missing})
        return (f"Qt's X11 plugin cannot load: missing {', '.join(missing)}; on Debian/Ubuntu: "
                f"apt-get install {' '.join(packages)}")
    display = env.get("DISPLAY", "")
    if display and not _x_display_opens(display):
        return f"cannot connect to the X display {display!r} (is the X server or Xvfb running?)"
    return None


def offscreen_screen(width: int, height: int, folder: Path) -> str:
    """``QT_QPA_PLATFORM`` for Qt's offscreen platform with one screen of ``width`` × ``height`` (its default is
    800 × 800): a picture of a laptop's window is taken on a laptop's screen, which the window fits itself to.
    The platform reads the screen from a JSON file written into ``folder``."""
    import json

    path = folder / "offscreen-screen.json"
    path.write_text(json.dumps({"screens": [{"name": "offscreen", "x": 0, "y": 0, "width": width, "height": height,
                                             "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}), encoding="utf-8")
    return f"offscreen:configfile={path}"


def picture_platform(width: int, height: int, folder: Path) -> str:
    """``QT_QPA_PLATFORM`` for a picture of a ``width`` × ``height`` window: Qt's offscreen platform with one screen
    that holds the window and its frame, whatever platform was chosen before (``offscreen`` alone has an 800 × 800
    screen, Xvfb's may be smaller still, and the window fits itself to its screen). A picture needs no display.
    The screen's file is written into ``folder``, which must outlive the application's start."""
    return offscreen_screen(width + 64, height + 64, folder)

