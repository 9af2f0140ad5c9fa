"""The README's curl examples, run as they stand with bash and curl against a live server and a
real Celery worker, so the documented API cannot drift from the real one."""

import io
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from webapp.accounts.services import create_token
from webapp.jobs.models import Document, RewriteJob

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
README = Path(__file__).resolve().parents[3] / "README.md"
MARKER = "<!-- The block below is run as it stands by tests/webapp/api/test_readme_curl.py. -->"


def readme_curl_block() -> str:
    text = README.read_text()
    after = text.split(MARKER, 1)[1]
    match = re.match(r"\s*```bash\n(.*?)\n```", after, re.DOTALL)
    assert match, "the README's API section lost its bash block"
    return match.group(1)


def test_the_block_uses_every_kind_of_call_the_section_promises():
    block = readme_curl_block()
    for path in [
        "/api/plan",
        "/api/jobs/upload",
        "/api/jobs/$JOB/output",
        "/api/jobs/$JOB/receipt",
        "/api/jobs/$JOB/bundle",
        "/api/jobs?q=",
        "/original",
    ]:
        assert path in block


def test_the_readme_curl_examples_run_against_a_live_server(
    live_server, celery_worker_process, alice, tmp_path
):
    assert shutil.which("curl"), "curl is not installed; scripts/test.sh installs it"
    _, token = create_token(alice, "readme")
    result = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", readme_curl_block()],
        cwd=tmp_path,
        env={**os.environ, "BASE": live_server.url, "TOKEN": token},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert '"name": "redact"' in out  # mechanisms
    assert '"notion": "none"' in out  # plan
    assert "Please write to [PERSON] at [EMAIL]." in out  # output
    memo, letter, *batch = RewriteJob.objects.order_by("pk")
    assert memo.state == "succeeded" and memo.document.name == "memo"
    assert letter.document.name == "letter.txt" and letter.document.source == "txt"
    assert memo.receipt.sha256 in out  # the receipt call
    archive = zipfile.ZipFile(io.BytesIO((tmp_path / "memo.zip").read_bytes()))
    assert len(archive.namelist()) == 3
    assert '"count": 1' in out  # history filtered to the one succeeded memo
    assert Document.objects.get(pk=memo.document_id).purged_at is not None  # DELETE ran
    assert [j.document.name for j in batch] == ["letter.txt", "note.txt"]
    letters = zipfile.ZipFile(io.BytesIO((tmp_path / "letters.zip").read_bytes()))
    assert len(letters.namelist()) == 7 and "manifest.json" in letters.namelist()
