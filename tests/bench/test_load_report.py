"""The load benchmark's report: every run kept with its machine load, the best and the worst
of the latest label per database, and whether the p95 target held."""

import pytest

from bench import load_bench


def _run(label: str, history_p95: float, job_p95: float, load: float) -> dict:
    def stats(p95: float) -> dict:
        return {"n": 100, "p50_ms": p95 / 2, "p95_ms": p95}

    phase = {"load_before": load, "load_after": load + 1}
    return {
        "label": label,
        "started": "2026-11-22 16:00:00",
        "config": {
            "jobs": 10_000,
            "clients": 50,
            "think_s": 1.0,
            "duration_s": 60.0,
            "closed_clients": 8,
        },
        "sqlite": {
            "server": {"workers": 2, "threads": 4},
            "single_client": {"history": stats(30), "job": stats(10), **phase},
            "loaded": {
                "history": stats(history_p95),
                "job": stats(job_p95),
                "req_per_s": 47.0,
                "errors": 0,
                **phase,
            },
            "closed_loop": {"req_per_s": 120.0, "errors": 0, **phase},
        },
    }


def test_the_report_keeps_every_run_and_names_the_best_and_the_worst(tmp_path, monkeypatch):
    monkeypatch.setattr(load_bench, "RESULTS", tmp_path)
    load_bench.save_run(_run("old", 20, 20, 0.5))  # an earlier label is left out of the report
    load_bench.save_run(_run("new", 80, 60, 1.2))
    load_bench.save_run(_run("new", 90, 240, 6.5))
    load_bench.write_report()
    report = (tmp_path / "load.md").read_text()
    assert "Runs labelled `new`: 2." in report
    assert "Target held in 1 of 2 runs." in report
    best, worst = (line for line in report.splitlines() if line.startswith(("| best", "| worst")))
    assert "40.0 / 80 ms" in best and "1.2 → 2.2" in best
    assert "45.0 / 90 ms" in worst and "120.0 / 240 ms" in worst and "6.5 → 7.5" in worst
    assert "postgres" not in report


def test_timing_waits_until_every_worker_has_ended_its_detector_warm_up(tmp_path, monkeypatch):
    monkeypatch.delenv("ANONYMIZER_WEB_WARM_DETECTOR", raising=False)
    log = tmp_path / "gunicorn.log"
    log.write_text("[INFO] Booting worker with pid: 1\n[INFO] Booting worker with pid: 2\n")
    with pytest.raises(SystemExit, match="did not load the detector"):
        load_bench.wait_until_warm(log, workers=2, timeout=0.2)
    log.write_text(
        log.read_text()
        + "[INFO] default detector ready in 14.2 s\n"
        + "Exception in thread warm-detector:\nTraceback (most recent call last):\n"
    )
    load_bench.wait_until_warm(log, workers=2, timeout=0.2)  # one loaded, one gave up
    with pytest.raises(SystemExit):
        load_bench.wait_until_warm(log, workers=3, timeout=0.2)
