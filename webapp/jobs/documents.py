"""Turning an upload into text: size limits, binary and encoding checks, .txt/.md/.docx/.pdf.

Every rejection raises DocumentError with a sentence a user can act on; nothing is stored.
"""

from __future__ import annotations

import io
from pathlib import PurePath

from django.conf import settings

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
    check_size(len(text.encode("utf-8")), what)
    if "\x00" in text:
        raise DocumentError(f"{what} looks like a binary file (it contains NUL bytes).")
    control = sum(1 for c in text if ord(c) < 32 and c not in "\n\t\f\v")
    if control > max(8, len(text) // 100):
        raise DocumentError(f"{what} looks like a binary file (too many control characters).")
    return text


def decode_text(data: bytes, filename: str) -> str:
    """UTF-8 (with or without BOM) or UTF-16 with a BOM; anything else is refused."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    else:
        encoding = "utf-8-sig"
        if b"\x00" in data:
            raise DocumentError(f"{filename!r} looks like a binary file, not text.")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise DocumentError(
            f"{filename!r} is not valid UTF-8 text (undecodable byte at position {exc.start}); "
            "save it as UTF-8 and upload it again."
        ) from None


def _docx_text(data: bytes, filename: str) -> str:
    """Headers, body (tables in place), notes, footers and comments, in reading order; the
    same extraction `anonymizer.formats.docx.rewrite_docx` maps replacements back onto."""
    from anonymizer.formats.docx import DocxError, docx_text

    try:
        return docx_text(data)
    except DocxError as exc:
        raise DocumentError(f"{filename!r} is not a readable .docx file ({exc}).") from None


def _pdf_text(data: bytes, filename: str) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        n_pages = len(reader.pages)
    except (PdfReadError, ValueError, OSError) as exc:
        raise DocumentError(f"{filename!r} is not a readable PDF ({exc}).") from None
    if n_pages > settings.MAX_PDF_PAGES:
        raise DocumentError(
            f"{filename!r} has {n_pages} pages; the limit is {settings.MAX_PDF_PAGES}."
        )
    from anonymizer.formats.pdf import pdf_pages_text

    # wrapped lines joined before detection, so no identifier is split over two lines
    text = pdf_pages_text([page.extract_text() or "" for page in reader.pages])
    if not text.strip():
        raise DocumentError(f"{filename!r} has no extractable text (scanned PDFs need OCR first).")
    return text
