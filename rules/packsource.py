"""Where a pack's files come from: a folder or a zip archive, read as data only.

A zip is examined member by member before anything is read from it: path traversal,
absolute paths, links and special files, duplicate names, too many members, oversized
members and implausible compression ratios are refused with findings. Nothing in a pack
is ever executed; files that are not JSON are reported and ignored.
"""
from __future__ import annotations

import lzma
import os
import stat
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from . import limits
from .findings import Finding, finding
from .jsondoc import MAX_BYTES

MAX_MEMBERS = limits.ZIP_MEMBERS  # for a folder too: a pack has tens of documents
MAX_TOTAL_BYTES = limits.ZIP_TOTAL_BYTES
MAX_RATIO = limits.ZIP_RATIO  # JSON compresses well, but not 200:1 unless it is a bomb
RATIO_FLOOR = 1024 * 1024  # small members may compress absurdly (a file of spaces) harmlessly
IGNORED_NAMES = {".DS_Store", "Thumbs.db"}
DATA_SUFFIXES = {".json"}
HARMLESS_SUFFIXES = {".md", ".txt", ".png", ".jpg", ".jpeg", ".svg", ".ttf", ".otf"}


@dataclass
class PackSource:
    """A pack's files by relative POSIX path, with the label shown to users for each."""

    label: str  # the folder or zip path as given
    kind: str  # "folder", "zip" or "file"
    members: dict[str, object] = field(default_factory=dict)  # rel path -> Path or ZipInfo
    findings: list[Finding] = field(default_factory=list)
    _zip: zipfile.ZipFile | None = None

    def display(self, rel: str) -> str:
        if self.kind == "zip":
            return f"{self.label}!{rel}"
        if self.kind == "file":
            return self.label
        return str(Path(self.label) / rel)

    def read(self, rel: str) -> tuple[bytes | None, Finding | None]:
        member = self.members[rel]
        try:
            if self._zip is not None:
                with self._zip.open(member) as fh:  # type: ignore[arg-type]
                    data = fh.read(MAX_BYTES + 1)
                if len(data) > MAX_BYTES:  # the header lied about the size
                    return None, finding("zip-too-large", f"unpacks to more than {MAX_BYTES:,} bytes",
                                         file=self.display(rel))
            else:
                size = Path(member).stat().st_size  # type: ignore[arg-type]
                if size > MAX_BYTES:
                    return None, finding("file-too-large",
                                         f"{size:,} bytes is over the {MAX_BYTES:,}-byte limit for a document",
                                         file=self.display(rel))
                try:  # a regular file only, its size checked again on the open file
                    data = limits.read_regular(member, MAX_BYTES)  # type: ignore[arg-type]
                except limits.InputError as exc:
                    message = str(exc).split(": ", 1)[-1]
                    code = "file-too-large" if "limit" in message else "file-unreadable"
                    return None, finding(code, message, file=self.display(rel))
        except (OSError, zipfile.BadZipFile, RuntimeError, EOFError, zlib.error, lzma.LZMAError) as exc:
            return None, finding("file-unreadable", f"cannot read: {exc}", file=self.display(rel))
        return data, None

    def data_files(self) -> list[str]:
        return sorted(r for r in self.members if PurePosixPath(r).suffix.lower() in DATA_SUFFIXES)

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()
            self._zip = None


def open_source(path: str | Path) -> PackSource:
    p = Path(path)
    label = str(path)
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:  # too long a name, a loop of links, no permission on a parent folder
        src = PackSource(label, "folder")
        src.findings.append(finding("file-unreadable", f"cannot read: {exc.strerror or exc}", file=label))
        return src
    if mode is None:
        src = PackSource(label, "folder")
        src.findings.append(finding("file-missing", "no such file or folder", file=label))
        return src
    if stat.S_ISDIR(mode):
        return _folder(p, label)
    if not stat.S_ISREG(mode):  # a FIFO would block is_zipfile forever, /dev/zero never end
        src = PackSource(label, "file")
        src.findings.append(finding("file-unreadable", f"is a {limits.file_kind(mode)}, not a regular file; "
                                    "only regular files and folders are read", file=label))
        return src
    if zipfile.is_zipfile(p):
        return _zipfile(p, label)
    if p.suffix.lower() == ".zip":
        src = PackSource(label, "zip")
        src.findings.append(finding("zip-corrupt", "not a readable zip archive", file=label))
        return src
    src = PackSource(label, "file", {p.name: p})
    return src


def _folder(root: Path, label: str) -> PackSource:
    src = PackSource(label, "folder")

    def unreadable(exc: OSError) -> None:  # os.walk skips what it cannot list: say so, never silently
        where = Path(exc.filename) if exc.filename else root
        try:
            shown = src.display(where.relative_to(root).as_posix()) if where != root else label
        except ValueError:
            shown = str(where)
        src.findings.append(finding("file-unreadable", f"cannot read this folder: {exc.strerror or exc}",
                                    file=shown))

    paths: list[Path] = []
    for folder, dirs, files in os.walk(root, onerror=unreadable):
        # Hidden folders are not part of a pack (.git, editor autosaves); links to folders are
        # not walked (os.walk does not follow them) but listed, to be reported below.
        paths += [Path(folder) / d for d in dirs if os.path.islink(os.path.join(folder, d))]
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        paths += [Path(folder) / name for name in files]
        if len(paths) > MAX_MEMBERS:
            src.findings.append(finding("zip-too-many", f"more than {MAX_MEMBERS:,} files; the limit is "
                                        f"{MAX_MEMBERS:,} (limit zip-members)", file=label))
            return src
    for path in sorted(paths):
        rel = path.relative_to(root).as_posix()
        if any(part.startswith(".") for part in PurePosixPath(rel).parts) or path.name in IGNORED_NAMES:
            continue
        if path.is_symlink():
            # A link could point anywhere on the machine; a pack is what its folder holds.
            src.findings.append(finding("pack-link", "symbolic links are not followed in packs", file=src.display(rel)))
            continue
        if path.is_dir():
            continue
        if not path.is_file():  # a FIFO or device would block or never end when read
            src.findings.append(finding("pack-link", "special files are not read in packs", file=src.display(rel)))
            continue
        _note_non_data(src, rel)
        src.members[rel] = path
    return src


def _note_non_data(src: PackSource, rel: str) -> None:
    suffix = PurePosixPath(rel).suffix.lower()
    if suffix not in DATA_SUFFIXES and suffix not in HARMLESS_SUFFIXES:
        src.findings.append(finding("not-data", "not a JSON document: ignored (packs are data only)",
                                    file=src.display(rel)))


def _zipfile(path: Path, label: str) -> PackSource:
    src = PackSource(label, "zip")
    try:
        zf = zipfile.ZipFile(path)
        infos = zf.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError, EOFError) as exc:  # RuntimeError: NotImplemented
        src.findings.append(finding("zip-corrupt", f"not a readable zip archive: {exc}", file=label))
        return src
    if len(infos) > MAX_MEMBERS:
        src.findings.append(finding("zip-too-many", f"{len(infos):,} members; the limit is {MAX_MEMBERS:,}",
                                    file=label))
        zf.close()
        return src
    total = 0
    seen: set[str] = set()
    root_prefix = _common_root(infos)
    for info in infos:
        name = info.filename
        shown = f"{label}!{name}"
        kind = stat.S_IFMT(info.external_attr >> 16)  # 0 when the zip tool recorded permissions only
        if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
            src.findings.append(finding("pack-link", "links and special files are refused", file=shown))
            continue
        pure = PurePosixPath(name.replace("\\", "/"))
        if pure.is_absolute() or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":") \
                or ".." in pure.parts:
            src.findings.append(finding("zip-unsafe-path", f"member path {name!r} leaves the pack", file=shown))
            continue
        if info.is_dir():
            continue
        normal = pure.as_posix()  # "./a.json" and "a.json" are one member once unpacked
        if normal in seen:
            src.findings.append(finding("zip-duplicate", f"member {name!r} appears twice", file=shown))
            continue
        seen.add(normal)
        if info.file_size > MAX_BYTES:
            src.findings.append(finding("zip-too-large",
                                        f"unpacks to {info.file_size:,} bytes; the limit is {MAX_BYTES:,}", file=shown))
            continue
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            src.findings.append(finding("zip-bomb", f"compressed {info.file_size // max(info.compress_size, 1):,}:1",
                                        file=shown))
            continue
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            src.findings.append(finding("zip-too-large", f"the archive unpacks to more than {MAX_TOTAL_BYTES:,} bytes",
                                        file=label))
            break
        rel = pure.as_posix()[len(root_prefix):]
        if any(part.startswith(".") for part in PurePosixPath(rel).parts) or pure.name in IGNORED_NAMES \
                or rel.startswith("__MACOSX/"):
            continue
        _note_non_data(src, rel)
        src.members[rel] = info
    src._zip = zf
    return src


def _common_root(infos) -> str:
    """Zips made by zipping a folder hold "mypack/pack.json": read them as if unpacked there."""
    names = [i.filename for i in infos if not i.is_dir()]
    if not names or "pack.json" in names:
        return ""
    first = names[0].split("/", 1)[0] + "/"
    if all(n.startswith(first) for n in names) and first + "pack.json" in names:
        return first
    return ""
