"""Whether a path can be opened as a pack, from the path alone (no Qt): asked by `sandtable
edit` before the splash and by the main window's Open, below both so neither imports the other."""
from __future__ import annotations

from pathlib import Path


def pack_problem(path: Path) -> str | None:
    """Why a path cannot be opened as a pack, looking only at the path itself (a folder with a
    pack.json, or a zip file): never a scan of the folder's tree."""
    try:
        if not path.exists():
            return f"{path} does not exist (moved or deleted?)"
        if path.is_dir():
            if (path / "pack.json").is_file():
                return None
            return f"{path} is not a pack: a pack folder has a pack.json at its top"
        if path.is_file() and path.suffix.lower() == ".zip":
            return None
        return f"{path} is not a pack folder or a pack zip"
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror or exc})"
