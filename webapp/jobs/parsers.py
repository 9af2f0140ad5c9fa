""".docx and .pdf text extraction, run in a child process with memory and CPU limits.

`python -m webapp.jobs.parsers KIND MAX_PAGES MAX_CHARS MEMORY_BYTES CPU_SECONDS` reads the
file from stdin and writes {"text": ...} or {"error": ...} as JSON to stdout. A hostile file
(a zip or XML bomb, a PDF with a huge compressed stream) can then exhaust only this child,
which the web process kills at its wall-clock limit. No Django here: the child starts fast.
"""

from __future__ import annotations

import io
import json
import resource
import sys


class ParseError(ValueError):
    """The file cannot be read; the message completes the sentence "'name.pdf' ..."."""


def docx_text(data: bytes, max_chars: int) -> str:
    """Headers, body (tables in place), notes, footers and comments in reading order: the
    extraction `anonymizer.formats.docx.rewrite_docx` maps the replacements back onto."""
    from anonymizer.formats.docx import docx_text as extract

    try:
        text = extract(data)
    except Exception as exc:  # DocxError, and whatever zipfile and lxml raise
        raise ParseError(f"is not a readable .docx file ({_short(exc)}).") from None
    _Bounded(max_chars).add(text)
    return text


def pdf_text(data: bytes, max_pages: int, max_chars: int) -> str:
    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(data))
        n_pages = len(reader.pages)
    except Exception as exc:  # pypdf raises PdfReadError, LimitReachedError, ValueError, ...
        raise ParseError(f"is not a readable PDF ({_short(exc)}).") from None
    if n_pages > max_pages:
        raise ParseError(f"has {n_pages} pages; the limit is {max_pages}.")
    from anonymizer.formats.pdf import pdf_pages_text

    pieces = _Bounded(max_chars)
    for page in reader.pages:
        try:
            pieces.add((page.extract_text() or "").strip())
        except Exception as exc:
            raise ParseError(f"has a page that cannot be read ({_short(exc)}).") from None
    # wrapped lines joined before detection, so no identifier is split over two lines
    text = pdf_pages_text(pieces.items)
    if not text.strip():
        raise ParseError("has no extractable text (scanned PDFs need OCR first).")
    return text


class _Bounded:
    """Collects text pieces and stops as soon as they exceed the document limit."""

    def __init__(self, max_chars: int) -> None:
        self.max_chars, self.n_chars, self.items = max_chars, 0, []

    def add(self, piece: str) -> None:
        self.n_chars += len(piece) + 1
        if self.n_chars > self.max_chars:
            raise ParseError(f"holds more than {self.max_chars:,} characters of text.")
        self.items.append(piece)


def _short(exc: BaseException) -> str:
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {message[:200]}" if message else type(exc).__name__


def _limit_resources(memory_bytes: int, cpu_seconds: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # a parser has nothing to write


def main(argv: list[str]) -> int:
    kind, max_pages, max_chars, memory_bytes, cpu_seconds = argv
    _limit_resources(int(memory_bytes), int(cpu_seconds))
    data = sys.stdin.buffer.read()
    try:
        if kind == "docx":
            result = {"text": docx_text(data, int(max_chars))}
        elif kind == "pdf":
            result = {"text": pdf_text(data, int(max_pages), int(max_chars))}
        else:
            result = {"error": f"cannot be read as {kind!r}."}
    except ParseError as exc:
        result = {"error": str(exc)}
    except MemoryError:
        result = {"error": "needs more memory to read than an upload may use."}
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
