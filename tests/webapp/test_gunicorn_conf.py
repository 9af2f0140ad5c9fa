"""A web worker's start-up (webapp/gunicorn.conf.py `post_worker_init`).

What loading the app and the default detector creates lives as long as the worker; a full
garbage collection walks all of it and pauses every request thread of the worker meanwhile
(0.2-1.5 s with the detector loaded, issue 16's history-page spikes). So it is frozen out of
the collector, and the detector loads with the collector off. The "default detector" log line
is what bench/load_bench.py waits for before it measures.
"""

from __future__ import annotations

import gc
import logging
import runpy
import threading
import weakref
from pathlib import Path

import pytest

from anonymizer import AnonymizerError

CONF = Path(__file__).resolve().parents[2] / "webapp" / "gunicorn.conf.py"


class Worker:
    log = logging.getLogger("tests.gunicorn_conf")


class SlowToLoad:
    """A detector whose loading creates many long-lived objects, as spaCy's model does."""

    def __init__(self) -> None:
        self.collector_was_on = gc.isenabled()
        self.vocabulary = [[i] for i in range(20_000)]

    def detect(self, text: str) -> list:
        return []


@pytest.fixture(autouse=True)
def _collector_restored():  # type: ignore[no-untyped-def]
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.enable()


def _start_worker(monkeypatch, factory) -> threading.Thread | None:  # type: ignore[no-untyped-def]
    """Run post_worker_init with `factory` as the default detector; its warm-up thread, if any
    (finished when this returns)."""
    go = threading.Event()  # the warm-up waits for it, so it is still running when listed

    def get_detector(name: str):  # type: ignore[no-untyped-def]
        go.wait(30)
        return factory()

    monkeypatch.setattr("anonymizer.detection.get_detector", get_detector)
    before = set(threading.enumerate())
    runpy.run_path(str(CONF))["post_worker_init"](Worker())
    started = [t for t in threading.enumerate() if t not in before and t.name == "warm-detector"]
    go.set()
    for thread in started:
        thread.join(30)
    return started[0] if started else None


def _tracked(objects: list) -> int:
    """How many of `objects` a collection would still walk (frozen ones it never does)."""
    ids = {id(o) for o in objects}
    return sum(1 for o in gc.get_objects() if id(o) in ids)


def test_a_worker_freezes_what_loading_the_app_created(monkeypatch):
    monkeypatch.setenv("ANONYMIZER_WEB_WARM_DETECTOR", "0")
    app_objects = [[i] for i in range(1000)]
    assert _tracked(app_objects) == 1000
    assert _start_worker(monkeypatch, SlowToLoad) is None
    assert _tracked(app_objects) == 0


class Node:
    """An object in a reference cycle: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_garbage_is_collected_before_a_freeze_not_frozen_with_the_rest(monkeypatch):
    monkeypatch.setenv("ANONYMIZER_WEB_WARM_DETECTOR", "0")
    gc.disable()  # no automatic collection may free it first
    garbage = weakref.ref(Node())
    assert garbage() is not None
    _start_worker(monkeypatch, SlowToLoad)
    assert garbage() is None


def test_the_detector_loads_with_the_collector_off_and_is_frozen_once_loaded(monkeypatch, caplog):
    monkeypatch.setenv("ANONYMIZER_WEB_WARM_DETECTOR", "1")
    loaded: list[SlowToLoad] = []

    def load() -> SlowToLoad:
        loaded.append(SlowToLoad())
        return loaded[-1]

    with caplog.at_level(logging.INFO, logger=Worker.log.name):
        assert _start_worker(monkeypatch, load) is not None
    assert loaded and not loaded[0].collector_was_on
    assert gc.isenabled()
    assert _tracked(loaded[0].vocabulary) == 0
    assert "default detector ready in" in caplog.text


def test_a_detector_that_fails_to_load_is_logged_and_leaves_the_collector_on(monkeypatch, caplog):
    monkeypatch.setenv("ANONYMIZER_WEB_WARM_DETECTOR", "1")

    def broken() -> SlowToLoad:
        raise AnonymizerError("no model here")

    with caplog.at_level(logging.INFO, logger=Worker.log.name):
        assert _start_worker(monkeypatch, broken) is not None
    assert gc.isenabled()
    assert "default detector unavailable: no model here" in caplog.text
