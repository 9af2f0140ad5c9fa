"""scripts/install.sh (run by scripts/run.sh) skips pip when nothing it depends on changed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.processes import ROOT

FAKE_PIP = """#!/usr/bin/env bash
echo "pip $*" >> "$(dirname "$0")/../pip-calls"
"""


def project_copy(tmp_path: Path) -> Path:
    """pyproject.toml, constraints.txt and the script, with a .venv whose pip only logs."""
    (tmp_path / "scripts").mkdir()
    for name in ("pyproject.toml", "constraints.txt", "scripts/install.sh"):
        shutil.copy(ROOT / name, tmp_path / name)
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").symlink_to(shutil.which("python3") or "/usr/bin/python3")
    (bin_dir / "pip").write_text(FAKE_PIP)
    (bin_dir / "pip").chmod(0o755)
    return tmp_path


def install(project: Path) -> list[str]:
    subprocess.run(
        ["bash", "scripts/install.sh"], cwd=project, check=True, capture_output=True, timeout=120
    )
    calls = project / ".venv" / "pip-calls"
    return calls.read_text().splitlines() if calls.exists() else []


def test_pip_runs_once_and_again_only_when_its_inputs_change(tmp_path):
    project = project_copy(tmp_path)
    # the project, vec2text without its dependencies, then the detector's word vectors
    assert len(install(project)) == 3
    assert len(install(project)) == 3  # unchanged: skipped
    with open(project / "pyproject.toml", "a") as pyproject:
        pyproject.write("\n# a changed dependency\n")
    assert len(install(project)) == 6
