"""Gunicorn settings for scripts/run.sh and docker-compose (command-line flags still apply)."""

import os
import threading
from pathlib import Path

# One control socket per instance (its var dir), not gunicorn's default in the home
# directory that every instance on the host would share.
_var_dir = Path(os.environ.get("ANONYMIZER_VAR_DIR") or Path(__file__).resolve().parents[1] / "var")
_var_dir.mkdir(parents=True, exist_ok=True)
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET") or str(_var_dir / "gunicorn.ctl")


def post_worker_init(worker) -> None:  # type: ignore[no-untyped-def]
    """Load the default detector (Presidio + spaCy) in the background of each web worker, so
    the first receipt preview does not wait several seconds for it."""

    if os.environ.get("ANONYMIZER_WEB_WARM_DETECTOR", "1") == "0":
        return

    def warm() -> None:
        from anonymizer import AnonymizerError, Settings
        from anonymizer.detection import get_detector

        try:
            get_detector(Settings().detector).detect("warm up")
        except AnonymizerError as exc:
            worker.log.warning("default detector unavailable: %s", exc)

    threading.Thread(target=warm, name="warm-detector", daemon=True).start()
