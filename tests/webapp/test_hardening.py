"""Deployment hardening: secret key, HTTPS settings, check --deploy, CSP, no-store, login
throttling and styled error pages."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.factories import succeeded_job
from tests.processes import ROOT

pytestmark = pytest.mark.django_db
PRODUCTION_ENV = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": "k" * 10 + "production-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
    "DJANGO_HTTPS": "1",
    "DJANGO_ALLOWED_HOSTS": "anonymizer.example.org",
    "DJANGO_CSRF_TRUSTED_ORIGINS": "https://anonymizer.example.org",
}


def run_django(code: str, env: dict[str, str], tmp_path) -> subprocess.CompletedProcess:  # type: ignore[no-untyped-def]
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "ANONYMIZER_"))}
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "webapp.settings",
            "ANONYMIZER_VAR_DIR": str(tmp_path),
            **env,
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_app_refuses_to_start_without_a_secret_key(tmp_path):
    refused = run_django("", {"DJANGO_DEBUG": "0"}, tmp_path)
    assert refused.returncode != 0 and "DJANGO_SECRET_KEY must be set" in refused.stderr
    assert run_django("", {"DJANGO_DEBUG": "1"}, tmp_path).returncode == 0


def test_https_mode_makes_cookies_secure_and_turns_on_hsts(tmp_path):
    code = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS)"
    )
    assert run_django(code, PRODUCTION_ENV, tmp_path).stdout.split() == [
        "True",
        "True",
        "True",
        "31536000",
        "True",
    ]
    plain = {**PRODUCTION_ENV, "DJANGO_HTTPS": "0"}
    assert run_django(code, plain, tmp_path).stdout.split() == ["False"] * 3 + ["0", "False"]


def test_check_deploy_is_clean_with_the_production_environment(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env={
            **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
            "ANONYMIZER_VAR_DIR": str(tmp_path),
            **PRODUCTION_ENV,
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_debug_fallback_key_is_flagged_by_check_deploy(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env={
            **PRODUCTION_ENV,
            "DJANGO_SECRET_KEY": "",
            "DJANGO_DEBUG": "1",
            "PATH": os.environ["PATH"],
            "ANONYMIZER_VAR_DIR": str(tmp_path),
        },
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0 and "security.W009" in result.stdout + result.stderr


INLINE_CODE = re.compile(r"<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=|hx-on", re.I)


def test_pages_send_a_csp_without_unsafe_inline_and_contain_no_inline_code(client, alice):
    job = succeeded_job(alice)
    client.force_login(alice)
    for url in [
        reverse("submit"),
        reverse("history"),
        reverse("job_detail", args=[job.pk]),
        reverse("login"),
    ]:
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe" not in policy, url
        assert not INLINE_CODE.search(response.content.decode()), url


def test_pages_that_show_originals_are_never_cached(client, alice):
    job = succeeded_job(alice)
    client.force_login(alice)
    for url in [
        reverse("job_detail", args=[job.pk]),
        reverse("job_status", args=[job.pk]),
        reverse("download_output", args=[job.pk]),
        reverse("download_zip", args=[job.pk]),
        reverse("submit"),
    ]:
        cache_control = client.get(url)["Cache-Control"]
        assert "no-store" in cache_control and "private" in cache_control, url
    preview = client.post(reverse("submit_preview"), {"mechanism": "redact", "text": "hi"})
    assert "no-store" in preview["Cache-Control"]


def test_repeated_wrong_passwords_lock_the_username_out_from_that_address(alice, settings):
    settings.AXES_FAILURE_LIMIT = 3
    attacker = Client(REMOTE_ADDR="203.0.113.9")
    statuses = [
        attacker.post(reverse("login"), {"username": "alice", "password": "wrong"}).status_code
        for _ in range(3)
    ]
    assert statuses == [200, 200, 429]  # the third failure reaches the limit
    locked = attacker.post(reverse("login"), {"username": "alice", "password": "alice-password-1"})
    assert locked.status_code == 429 and "Too many failed log-ins" in locked.content.decode()
    elsewhere = Client(REMOTE_ADDR="198.51.100.7")
    ok = elsewhere.post(reverse("login"), {"username": "alice", "password": "alice-password-1"})
    assert ok.status_code == 302


def test_error_pages_are_styled_like_the_app(client, alice):
    client.force_login(alice)
    missing = client.get("/no/such/page/")
    assert missing.status_code == 404 and "Nothing here" in missing.content.decode()
    assert "css/app.css" in missing.content.decode()
    from django.views.defaults import bad_request, server_error

    request = RequestFactory().get("/")
    assert "Something went wrong on our side" in server_error(request).content.decode()
    assert "could not be understood" in bad_request(request, Exception()).content.decode()
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(alice)
    refused = forged.post(reverse("submit"), {"text": "x"})
    assert refused.status_code == 403 and "This form has expired" in refused.content.decode()


def test_presidio_per_document_warnings_are_not_logged():
    import logging

    assert logging.getLogger("presidio-analyzer").getEffectiveLevel() >= logging.ERROR
