"""Stop a running rewrite within a fraction of a second of the owner's cancel click.

Progress callbacks check for a cancel only when a mechanism calls them, and some long steps
(building a token sanitizer's candidate set, a detector over a long text) call them rarely.
A watcher thread polls the jobs' rows and raises `CancelledByUser` in the task's thread
(CPython's PyThreadState_SetAsyncExc), which interrupts any Python loop at its next
bytecode and a long C call (a numpy or torch kernel) as soon as it returns. Nothing is
released or charged by an interrupted rewrite: the task then marks the jobs cancelled.
"""

from __future__ import annotations

import ctypes
import threading
from types import TracebackType

from django.db import DatabaseError, connection

from webapp.jobs.models import RewriteJob
from webapp.jobs.services import CancelledByUser

POLL_SECONDS = 0.25

_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
_set_async_exc.argtypes = [ctypes.c_ulong, ctypes.py_object]
_set_async_exc.restype = ctypes.c_int


class CancelWatcher:
    """`with CancelWatcher(job_ids): rewrite(...)` raises CancelledByUser inside the block
    soon after any of the jobs is asked to stop."""

    def __init__(self, job_ids: list[int], poll_seconds: float = POLL_SECONDS) -> None:
        self.job_ids = list(job_ids)
        self.poll_seconds = poll_seconds
        self.target = threading.get_ident()
        self.stopped = threading.Event()
        self.interrupted = False
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._watch, name="cancel-watch", daemon=True)

    def __enter__(self) -> CancelWatcher:
        self.target = threading.get_ident()
        self.thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with self.lock:
            self.stopped.set()
            interrupted = self.interrupted
        self.thread.join()
        if interrupted and exc_type is None:
            _set_async_exc(self.target, ctypes.py_object())  # clear one not yet delivered
            raise CancelledByUser()

    def _watch(self) -> None:
        try:
            while not self.stopped.wait(self.poll_seconds):
                if self._cancel_requested():
                    with self.lock:
                        if not self.stopped.is_set():
                            self.interrupted = True
                            _set_async_exc(self.target, ctypes.py_object(CancelledByUser))
                    return
        finally:
            connection.close()

    def _cancel_requested(self) -> bool:
        try:
            return RewriteJob.objects.filter(pk__in=self.job_ids, cancel_requested=True).exists()
        except DatabaseError:  # a busy or restarting database: ask again at the next poll
            connection.close()
            return False
