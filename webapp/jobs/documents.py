"""Turning an upload into text: size limits, binary and encoding checks, .txt/.md/.docx/.pdf.

Every rejection raises DocumentError with a sentence a user can act on; nothing is stored.
Work in the web process is bounded before it starts: a .docx's zip directory is checked
(member count, total uncompressed size, compression ratio) before anything decompresses it,
and .docx/.pdf are parsed in a child process with memory, CPU and wall-clock limits
(`webapp.jobs.parsers`).
"""

from __future__ import annotations

import io
import json
import logging
import math
import re
import subprocess
import sys
import zipfile
from pathlib import PurePath

from django.conf import settings

log = logging.getLogger(__name__)
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0e-\x1f]")
_SURROGATES = re.compile("[\ud800-\udfff]")
DOCX_MAIN_PART = "word/document.xml"

TEXT_EXTENSIONS = {".txt", ".md", ".markdown"}
SUPPORTED_EXTENSIONS = TEXT_EXTENSIONS | {".docx", ".pdf"}


class DocumentError(ValueError):
    """An upload or pasted text that cannot become a document."""


def extract_text(filename: str, data: bytes) -> tuple[str, str]:
    """Return (text, source kind) for an uploaded file, or raise DocumentError."""
    ext = PurePath(filename).suffix.lower()
    if ext not in SUPPORTED_EXTENSIONS:
        raise DocumentError(
            f"{filename!r} is not a supported file type; upload .txt, .md, .docx or .pdf."
        )
    if not data:
        raise DocumentError(f"{filename!r} is empty.")
    check_size(len(data), filename)
    if ext in TEXT_EXTENSIONS:
        text, kind = decode_text(data, filename), ext.lstrip(".")
    elif ext == ".docx":
        text, kind = _docx_text(data, filename), "docx"
    else:
        text, kind = _pdf_text(data, filename), "pdf"
    return check_text(text, filename), "md" if kind == "markdown" else kind


def check_size(n_bytes: int, what: str) -> None:
    limit = settings.MAX_DOCUMENT_BYTES
    if n_bytes > limit:
        raise DocumentError(f"{what} is {n_bytes:,} bytes; the limit is {limit:,} bytes.")


def check_text(text: str, what: str = "The text") -> str:
    """Reject empty or binary-looking text; normalise newlines."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise DocumentError(f"{what} contains no text.")
    check_size(len(text.encode("utf-8", "surrogatepass")), what)
    if "\x00" in text:
        raise DocumentError(f"{what} looks like a binary file (it contains NUL bytes).")
    if _SURROGATES.search(text):
        raise DocumentError(f"{what} contains invalid characters (unpaired surrogates).")
    control = len(_CONTROL_CHARS.findall(text))
    if control > max(8, len(text) // 100):
        raise DocumentError(f"{what} looks like a binary file (too many control characters).")
    return text


def decode_text(data: bytes, filename: str) -> str:
    """UTF-8 (with or without BOM) or UTF-16 (with a BOM, or recognisably without one)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    elif bom_less_utf16 := _utf16_without_bom(data):
        encoding = bom_less_utf16
    else:
        encoding = "utf-8-sig"
        if b"\x00" in data:
            raise DocumentError(f"{filename!r} looks like a binary file, not text.")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        name = "UTF-8" if encoding == "utf-8-sig" else "UTF-16"
        raise DocumentError(
            f"{filename!r} is not valid {name} text (undecodable byte at position {exc.start}); "
            "save it as UTF-8 and upload it again."
        ) from None


def _utf16_without_bom(data: bytes) -> str | None:
    """'utf-16-le' or 'utf-16-be' for text whose every other byte is NUL (mostly ASCII)."""
    sample = data[:4096]
    if len(sample) < 4 or len(data) % 2:
        return None
    even, odd = sample[0::2], sample[1::2]
    if odd.count(0) > 0.9 * len(odd) and even.count(0) < 0.1 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.9 * len(even) and odd.count(0) < 0.1 * len(odd):
        return "utf-16-be"
    return None


def _docx_text(data: bytes, filename: str) -> str:
    check_docx_container(data, filename)
    return _parse_in_child("docx", data, filename)


def _pdf_text(data: bytes, filename: str) -> str:
    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise DocumentError(f"{filename!r} is not a readable PDF (no %PDF header).")
    return _parse_in_child("pdf", data, filename)


def check_docx_container(data: bytes, filename: str) -> None:
    """Refuse zip bombs from the zip directory alone, before anything is decompressed."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except Exception as exc:  # zipfile raises BadZipFile, ValueError, EOFError, struct.error...
        raise DocumentError(
            f"{filename!r} is not a readable .docx file ({type(exc).__name__})."
        ) from None
    if len(members) > settings.MAX_DOCX_MEMBERS:
        raise DocumentError(
            f"{filename!r} holds {len(members):,} files; a .docx may hold at most "
            f"{settings.MAX_DOCX_MEMBERS:,}."
        )
    total = sum(m.file_size for m in members)
    if total > settings.MAX_DOCX_UNCOMPRESSED_BYTES:
        raise DocumentError(
            f"{filename!r} expands to {total:,} bytes; the limit is "
            f"{settings.MAX_DOCX_UNCOMPRESSED_BYTES:,}."
        )
    for member in members:
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > 1_000_000 and ratio > settings.MAX_ZIP_RATIO:
            raise DocumentError(
                f"{filename!r} has a part compressed {ratio:,.0f}:1 (limit "
                f"{settings.MAX_ZIP_RATIO}:1); it looks like a zip bomb."
            )
    if DOCX_MAIN_PART not in {m.filename for m in members}:
        raise DocumentError(f"{filename!r} is not a Word document (no {DOCX_MAIN_PART}).")


def _parse_in_child(kind: str, data: bytes, filename: str) -> str:
    """Run `webapp.jobs.parsers` in a child process with memory, CPU and wall-clock limits."""
    timeout = settings.PARSE_TIMEOUT_SECONDS
    command = [
        sys.executable,
        "-m",
        "webapp.jobs.parsers",
        kind,
        str(settings.MAX_PDF_PAGES),
        str(settings.MAX_DOCUMENT_BYTES),
        str(settings.PARSE_MEMORY_BYTES),
        str(math.ceil(timeout)),
    ]
    try:
        done = subprocess.run(
            command, input=data, capture_output=True, timeout=timeout, cwd=settings.BASE_DIR
        )
    except subprocess.TimeoutExpired:
        log.warning("parsing a %s upload (%d bytes) timed out", kind, len(data))
        raise DocumentError(
            f"{filename!r} took longer than {timeout:g} s to read; it may be damaged or "
            "built to exhaust the reader."
        ) from None
    try:
        result = json.loads(done.stdout)
    except ValueError:
        result = None
    if done.returncode != 0 or not isinstance(result, dict):
        log.warning(
            "parsing a %s upload (%d bytes) ended with code %s: %s",
            kind,
            len(data),
            done.returncode,
            done.stderr[-300:].decode("utf-8", "replace"),
        )
        raise DocumentError(
            f"{filename!r} could not be read within the memory and time an upload may use; "
            "it may be damaged."
        )
    if "error" in result:
        raise DocumentError(f"{filename!r} {result['error']}")
    return str(result["text"])
