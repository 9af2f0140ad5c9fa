"""Gunicorn settings for scripts/run.sh and docker-compose (command-line flags still apply)."""

import gc
import os
import threading
import time
from pathlib import Path

# One control socket per instance (its var dir), not gunicorn's default in the home
# directory that every instance on the host would share.
_var_dir = Path(os.environ.get("ANONYMIZER_VAR_DIR") or Path(__file__).resolve().parents[1] / "var")
_var_dir.mkdir(parents=True, exist_ok=True)
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET") or str(_var_dir / "gunicorn.ctl")


def post_worker_init(worker) -> None:  # type: ignore[no-untyped-def]
    """Take what loading the app created out of the garbage collector's reach, then load the
    default detector (rules + NER model) in the background of each web worker, so the first
    receipt preview does not wait several seconds for it.

    Every full collection walks every tracked object and stops all the worker's threads while
    it does: with the detector's half a million objects each was a pause of 0.2-1.5 s on this
    busy 2-core machine. Frozen objects are never walked again, so each freeze follows one
    collection (garbage frozen would never be freed).
    """
    gc.collect()  # before the worker serves anything
    gc.freeze()
    if os.environ.get("ANONYMIZER_WEB_WARM_DETECTOR", "1") == "0":
        return

    def warm() -> None:
        from anonymizer import AnonymizerError, Settings
        from anonymizer.detection import get_detector, warm_up

        started = time.monotonic()
        gc.disable()  # loading creates the objects frozen below: walking them meanwhile is waste
        try:
            warm_up(get_detector(Settings().detector))
        except AnonymizerError as exc:
            worker.log.warning("default detector unavailable: %s", exc)
            return
        finally:
            gc.enable()
            gc.collect()  # once, for the loading's garbage
            gc.freeze()
        worker.log.info("default detector ready in %.1f s", time.monotonic() - started)

    threading.Thread(target=warm, name="warm-detector", daemon=True).start()
