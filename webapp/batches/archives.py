"""Reading a batch upload: several files, or one .zip of .txt/.md/.docx/.pdf, with limits.

Everything is decided from the zip directory before a byte is decompressed (member count,
declared sizes, compression ratio, names, nested archives, encryption); members are then
read with a bound that does not trust the declared size. Nothing is written to disk, so a
member name is never used as a path, but a name that would escape a folder is refused all
the same: such an archive was made to attack some unpacker. The stdlib `zipfile` is used
directly because no maintained library adds these checks to it.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath

from django.conf import settings

from webapp.jobs.documents import SUPPORTED_EXTENSIONS, DocumentError

ARCHIVE_EXTENSIONS = {
    ".zip", ".7z", ".rar", ".tar", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".jar", ".cab", ".iso",
}  # fmt: skip
# Files operating systems leave in archives; not documents, ignored without a word.
_OS_LITTER = {".ds_store", "thumbs.db", "desktop.ini"}
_DRIVE = re.compile(r"^[A-Za-z]:")
# A member this small cannot be a meaningful bomb whatever its ratio (1,000 "a"s compress 100:1).
_RATIO_FLOOR_BYTES = 64 * 1024
_ENCRYPTED_FLAG = 0x1


class BatchError(DocumentError):
    """A batch upload that is refused as a whole; the message says why."""


@dataclass(frozen=True)
class Upload:
    """One document of a batch: its name (a path inside a zip) and its bytes."""

    name: str
    data: bytes


def is_zip_name(name: str) -> bool:
    return PurePosixPath(name).suffix.lower() == ".zip"


def batch_uploads(files: list[tuple[str, bytes]]) -> list[Upload]:
    """The documents of a batch: the files themselves, or the members of one .zip."""
    if not files:
        raise BatchError("Choose the files of the batch (or one .zip of them).")
    zips = [name for name, _ in files if is_zip_name(name)]
    if zips and len(files) > 1:
        raise BatchError(
            f"Upload either one .zip or the documents themselves, not both ({zips[0]!r} "
            f"came with {len(files) - 1} other file(s))."
        )
    uploads = read_zip(*files[0]) if zips else [Upload(n, d) for n, d in files]
    check_count(len(uploads))
    return uploads


def check_count(n: int) -> None:
    limit = settings.BATCH_MAX_DOCUMENTS
    if n == 0:
        raise BatchError("The batch holds no documents (.txt, .md, .docx or .pdf).")
    if n > limit:
        raise BatchError(f"The batch holds {n} documents; a batch may hold at most {limit}.")


def read_zip(filename: str, data: bytes) -> list[Upload]:
    """The documents in a .zip, after checking every member's name, type and size."""
    if len(data) > settings.BATCH_MAX_ZIP_BYTES:
        raise BatchError(
            f"{filename!r} is {len(data):,} bytes; a batch .zip may be at most "
            f"{settings.BATCH_MAX_ZIP_BYTES:,} bytes."
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except Exception as exc:  # BadZipFile, ValueError, EOFError, struct.error, ...
        raise BatchError(
            f"{filename!r} is not a readable .zip file ({type(exc).__name__})."
        ) from None
    if len(entries) > settings.BATCH_MAX_ZIP_ENTRIES:
        raise BatchError(
            f"{filename!r} has {len(entries):,} entries; a batch .zip may have at most "
            f"{settings.BATCH_MAX_ZIP_ENTRIES:,}."
        )
    members = [e for e in entries if not e.is_dir() and not _is_os_litter(e.filename)]
    for member in members:
        _check_member(filename, member)
    check_count(len(members))
    declared = sum(m.file_size for m in members)
    if declared > settings.BATCH_MAX_TOTAL_BYTES:
        raise BatchError(
            f"{filename!r} expands to {declared:,} bytes; a batch may hold at most "
            f"{settings.BATCH_MAX_TOTAL_BYTES:,} bytes of documents."
        )
    with archive:
        return [Upload(m.filename, _read_member(archive, filename, m)) for m in members]


def _is_os_litter(name: str) -> bool:
    path = PurePosixPath(name)
    return (
        path.parts[:1] == ("__MACOSX",)
        or path.name.lower() in _OS_LITTER
        or path.name.startswith("._")
    )


def unsafe_member_name(name: str) -> bool:
    """A name that is absolute, names a drive, climbs out with '..', or holds a NUL."""
    if "\x00" in name or name.startswith(("/", "\\")) or _DRIVE.match(name):
        return True
    return ".." in re.split(r"[/\\]", name)


def _check_member(filename: str, member: zipfile.ZipInfo) -> None:
    name = member.filename
    if unsafe_member_name(name):
        raise BatchError(
            f"{filename!r} contains {name!r}, a path that points outside the archive; "
            "archives with such names are refused."
        )
    suffix = PurePosixPath(name).suffix.lower()
    if suffix in ARCHIVE_EXTENSIONS:
        raise BatchError(
            f"{filename!r} contains another archive, {name!r}; nested archives are not "
            "accepted: put the documents themselves in one .zip."
        )
    if suffix not in SUPPORTED_EXTENSIONS:
        raise BatchError(
            f"{filename!r} contains {name!r}, which is not a supported document; a batch "
            "may hold .txt, .md, .docx and .pdf files only."
        )
    if member.flag_bits & _ENCRYPTED_FLAG:
        raise BatchError(f"{name!r} in {filename!r} is password-protected; zip it without one.")
    if member.file_size > settings.MAX_DOCUMENT_BYTES:
        raise BatchError(
            f"{name!r} in {filename!r} is {member.file_size:,} bytes; the limit is "
            f"{settings.MAX_DOCUMENT_BYTES:,} bytes per document."
        )
    ratio = member.file_size / max(member.compress_size, 1)
    if member.file_size > _RATIO_FLOOR_BYTES and ratio > settings.MAX_ZIP_RATIO:
        raise BatchError(
            f"{name!r} in {filename!r} is compressed {ratio:,.0f}:1 (the limit is "
            f"{settings.MAX_ZIP_RATIO}:1); the archive looks like a zip bomb."
        )


def _read_member(archive: zipfile.ZipFile, filename: str, member: zipfile.ZipInfo) -> bytes:
    """The member's bytes, reading at most one byte more than it declares."""
    try:
        with archive.open(member) as stream:
            data = stream.read(member.file_size + 1)
    except Exception as exc:  # BadZipFile (CRC), zlib.error, NotImplementedError, ...
        raise BatchError(
            f"{member.filename!r} in {filename!r} cannot be read ({type(exc).__name__})."
        ) from None
    if len(data) > member.file_size:
        raise BatchError(
            f"{member.filename!r} in {filename!r} holds more than its declared size; "
            "the archive was tampered with."
        )
    return data
