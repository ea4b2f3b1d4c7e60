"""The Debian packages the editor's window needs on a Linux desktop, checked before Qt starts.

Qt's X11 platform plugin (libqxcb) loads a dozen small xcb libraries; on a fresh desktop
install some are missing and Qt stops with a message naming another package. Each library is
loaded here by its soname, through the system's own loader, so what is reported is exactly
what Qt would fail on. No Qt import: it runs before PySide6 is touched.
"""
from __future__ import annotations

import ctypes
import os
import sys
from typing import Callable

# soname -> Debian package (the README lists the same packages)
X11_LIBRARIES = {
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libdbus-1.so.3": "libdbus-1-3",
}


def uses_x11(environ=os.environ, platform: str = sys.platform) -> bool:
    """Whether Qt will open its X11 plugin: Linux, and no other platform asked for."""
    if not platform.startswith("linux"):
        return False
    asked = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    return asked in ("", "xcb")


def missing_packages(load: Callable[[str], object] = ctypes.CDLL) -> list[str]:
    """The Debian packages whose library the system's loader cannot find, in install order."""
    missing = []
    for soname, package in X11_LIBRARIES.items():
        try:
            load(soname)
        except OSError:
            missing.append(package)
    return missing


def problem(environ=os.environ, platform: str = sys.platform,
            load: Callable[[str], object] = ctypes.CDLL) -> str | None:
    """A sentence saying what to install, or None when the window can open."""
    if not uses_x11(environ, platform):
        return None
    missing = missing_packages(load)
    if not missing:
        return None
    return ("the editor's window needs libraries that are not installed (Qt's X11 plugin loads them): "
            f"install them with\n  sudo apt install {' '.join(missing)}\n"
            "(or run without a display: QT_QPA_PLATFORM=offscreen)")
