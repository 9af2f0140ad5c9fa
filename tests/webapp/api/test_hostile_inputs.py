"""The API and the batch form under the fuzz corpus's hostile inputs: malformed settings, every
hostile upload (alone, and packed into a batch .zip), raw bodies and junk query strings. No
response is a server error; every refusal is JSON with a reason (API) or a form error."""

from __future__ import annotations

import json
import random
import zipfile
from collections import Counter

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.fuzz_corpus import build_corpus, upload_cases
from tests.webapp.api.conftest import token_client
from tests.webapp.batches.test_archives import make_zip

pytestmark = pytest.mark.django_db
N_SETTINGS_CASES = 240


def _hostile_files() -> dict[str, bytes]:
    files = {}
    for case in upload_cases():
        for name, data in case.files.values():
            files[name] = data
    return files


def _settings_payloads() -> list[dict]:
    cases = [c for c in build_corpus() if c.name.startswith(("settings-", "extreme-"))]
    return [c.data for c in random.Random(14).sample(cases, min(N_SETTINGS_CASES, len(cases)))]


def _as_json_settings(data: dict) -> dict:
    settings = {k: v for k, v in data.items() if k not in ("text", "name")}
    return {"text": data.get("text", ""), "settings": settings}


def test_no_hostile_api_request_gets_a_server_error(alice, monkeypatch, tiny_models_available):
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", lambda job_id: True)
    client = token_client(alice)
    client.raise_request_exception = False
    statuses: Counter[int] = Counter()
    failures: list[str] = []

    def check(name: str, response) -> None:  # type: ignore[no-untyped-def]
        statuses[response.status_code] += 1
        if response.status_code >= 500:
            failures.append(f"{name}: {response.status_code}")
        elif response.status_code >= 400 and response.status_code != 401:
            body = response.json()
            if not body.get("detail"):
                failures.append(f"{name}: {response.status_code} without a reason")

    for i, data in enumerate(_settings_payloads()):
        body = _as_json_settings(data)
        path = "/api/plan" if i % 2 else "/api/jobs"
        check(f"settings-{i}", client.post(path, body, content_type="application/json"))
    settings = json.dumps({"mechanism": "redact", "detector": "regex"})
    for name, data in _hostile_files().items():
        upload = SimpleUploadedFile(name, data)
        check(
            f"upload-{name[:30]}",
            client.post("/api/jobs/upload", {"file": upload, "settings": settings}),
        )
        batch = [SimpleUploadedFile(name, data), SimpleUploadedFile("ok.txt", b"Mail a@b.org")]
        check(
            f"batch-{name[:30]}",
            client.post("/api/batches", {"files": batch, "settings": settings}),
        )
        packed = SimpleUploadedFile(
            "in.zip", make_zip({name.lstrip("./"): data}, compression=zipfile.ZIP_STORED)
        )
        check(
            f"zip-{name[:30]}",
            client.post("/api/batches", {"files": [packed], "settings": settings}),
        )
    for name, raw, content_type in [
        ("not-json", b"{oops", "application/json"),
        ("json-list", b"[1, 2]", "application/json"),
        ("json-deep", b"[" * 5000 + b"]" * 5000, "application/json"),
        ("settings-not-object", b'{"text": "x", "settings": [1]}', "application/json"),
        (
            "huge-text",
            b'{"text": "' + b"a" * 2_100_000 + b'", "settings": {"mechanism": "redact"}}',
            "application/json",
        ),
        ("form-instead", b"text=x&mechanism=redact", "application/x-www-form-urlencoded"),
    ]:
        check(f"raw-{name}", client.generic("POST", "/api/jobs", raw, content_type=content_type))
    for query in ["page=-1", "page=abc", "sort=%00", "from=2020-13-45", "q=" + "x" * 5000]:
        check(f"history-{query[:20]}", client.get(f"/api/jobs?{query}"))
    for path in ["/api/jobs/0", "/api/jobs/99999999999999999999", "/api/batches/-1"]:
        check(path, client.get(path))
    assert not failures, failures[:20]
    assert statuses[201] > 0 and statuses[422] > 0  # both admitted and refused cases ran


def test_no_hostile_batch_form_gets_a_server_error(alice, monkeypatch):
    """The page's own path (login, CSRF, upload handler) with each hostile file; the same files
    packed into a .zip go through the same BatchForm in the API test above."""
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", lambda job_id: True)
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    form = {"mechanism": "redact", "detector": "regex"}
    errors = []
    for name, data in _hostile_files().items():
        files = [SimpleUploadedFile(name, data)]
        response = client.post(reverse("batch_new"), {**form, "files": files})
        if response.status_code >= 500:
            errors.append(f"{name}: {response.status_code}")
        elif response.status_code == 200 and 'role="alert"' not in response.content.decode():
            errors.append(f"{name}: refused without a visible reason")
    assert not errors
