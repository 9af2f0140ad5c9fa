"""Upload limits for a batch request: each document, a .zip, and all files together.

Installed per request by the batch views in place of the single-document limit
(`webapp.jobs.uploads`), before the body is parsed; other forms keep that limit.
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, SkipFile, StopUpload
from django.http import HttpRequest

from webapp.batches.archives import is_zip_name
from webapp.jobs.uploads import SizeLimitedUploadHandler

REFUSAL_ATTRIBUTE = "batch_upload_refused"


class BatchUploadHandler(FileUploadHandler):
    """Stops reading a file past its limit, and the whole upload past the batch total; the
    reason is kept on the request for the form to show."""

    def handle_raw_input(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        self.total = 0

    def new_file(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().new_file(*args, **kwargs)
        self.received = 0
        zipped = is_zip_name(self.file_name or "")
        self.limit = settings.BATCH_MAX_ZIP_BYTES if zipped else settings.MAX_DOCUMENT_BYTES

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        self.total += len(raw_data)
        if self.total > settings.BATCH_MAX_TOTAL_BYTES:
            self._refuse(
                f"The files together are more than {settings.BATCH_MAX_TOTAL_BYTES:,} bytes, "
                "the limit for one batch."
            )
            raise StopUpload(connection_reset=False)
        if self.received > self.limit:
            self._refuse(f"{self.file_name!r} is larger than its limit of {self.limit:,} bytes.")
            raise SkipFile()
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None

    def _refuse(self, reason: str) -> None:
        if not hasattr(self.request, REFUSAL_ATTRIBUTE):
            setattr(self.request, REFUSAL_ATTRIBUTE, reason)


def install_batch_upload_handler(request: HttpRequest) -> None:
    """Put the batch limits first; call before anything reads request.POST or request.FILES."""
    request.upload_handlers = [
        BatchUploadHandler(request),
        *[h for h in request.upload_handlers if not _is_single_document_limit(h)],
    ]


def upload_refusal(request: HttpRequest) -> str | None:
    return getattr(request, REFUSAL_ATTRIBUTE, None)


def _is_single_document_limit(handler: FileUploadHandler) -> bool:
    return isinstance(handler, SizeLimitedUploadHandler)
