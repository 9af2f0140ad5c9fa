"""An upload handler that stops reading a file once it passes the document size limit.

Django bounds the size of ordinary form fields (DATA_UPLOAD_MAX_MEMORY_SIZE) but not of
uploaded files, which it would stream to memory or a temporary file whatever their size.
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, SkipFile

OVERSIZED_ATTRIBUTE = "oversized_upload"


class SizeLimitedUploadHandler(FileUploadHandler):
    """Skips a file past MAX_DOCUMENT_BYTES and notes its name on the request for the form."""

    def new_file(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().new_file(*args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > settings.MAX_DOCUMENT_BYTES:
            setattr(self.request, OVERSIZED_ATTRIBUTE, self.file_name or "the file")
            raise SkipFile()
        return raw_data  # handed on to the next handler, which stores it

    def file_complete(self, file_size: int) -> None:
        return None


def oversized_upload(request) -> str | None:  # type: ignore[no-untyped-def]
    """The name of a file the handler skipped for its size (read after request.FILES)."""
    return getattr(request, OVERSIZED_ATTRIBUTE, None)
