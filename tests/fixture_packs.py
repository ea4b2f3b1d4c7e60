"""The finding-code fixtures: a small valid pack, variants that break one thing each, mods, zips.

``tests/fixtures/base`` is a complete, clean Desert Steel pack of its own (id ``fixture-base``),
independent of ``data/desert-steel``. ``tests/fixtures/variants/<name>/`` holds only the files
that differ from the base: ``variant(name, dest)`` copies the base and lays them over it.
``tests/fixtures/setup-variants/<name>/`` are laid over the base the same way and break one
rule of ``sandtable check-setup`` each (the folder is named after the code it produces).
``tests/fixtures/mods/<name>/`` are mod packs over the base, loaded with ``search=[FIXTURES, MODS]`` (dependencies come only from the bundled packs and explicit search folders).
Zips are built at run time, never committed.
"""
from __future__ import annotations

import shutil
import stat
import zipfile
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BASE = FIXTURES / "base"
VARIANTS = FIXTURES / "variants"
MODS = FIXTURES / "mods"

# Every document of the base pack, by relative path (the fuzz tests mutate each one).
BASE_DOCUMENTS = sorted(p.relative_to(BASE).as_posix() for p in BASE.rglob("*.json"))


def copy_base(dest: Path) -> Path:
    shutil.copytree(BASE, dest)
    return dest


def variant(name: str, dest: Path) -> Path:
    """The base pack with the files of variant ``name`` laid over it, in ``dest``."""
    copy_base(dest)
    shutil.copytree(VARIANTS / name, dest, dirs_exist_ok=True)
    return dest


def zip_folder(folder: Path, target: Path, prefix: str = "", compression=zipfile.ZIP_DEFLATED) -> Path:
    """Zip every file of a folder; ``prefix`` ("mypack/") puts them under a top-level folder."""
    with zipfile.ZipFile(target, "w", compression) as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                zf.write(path, prefix + path.relative_to(folder).as_posix())
    return target


def add_member(target: Path, name: str, data: bytes = b"{}", *, mode: int | None = None,
               compression=zipfile.ZIP_DEFLATED) -> None:
    """Append one member with exactly this name (no normalisation) and optional Unix mode."""
    info = zipfile.ZipInfo(name)
    info.compress_type = compression
    if mode is not None:
        info.create_system = 3  # Unix: external_attr holds st_mode in its high 16 bits
        info.external_attr = mode << 16
    with zipfile.ZipFile(target, "a") as zf:
        zf.writestr(info, data)


SYMLINK_MODE = stat.S_IFLNK | 0o777
