"""`manage.py create_user` for scripted deployments."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import CommandError, call_command

from webapp.accounts.models import Invite

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def stdin(monkeypatch):  # type: ignore[no-untyped-def]
    return lambda text: monkeypatch.setattr("sys.stdin", io.StringIO(text))


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("create_user", *args, stdout=out)
    return out.getvalue()


def test_it_creates_a_user_with_a_password_from_stdin(stdin):
    stdin("a-Long-pass-42\n")
    _run("erin", "--email", "erin@example.org", "--password-stdin")
    erin = User.objects.get(username="erin")
    assert erin.check_password("a-Long-pass-42") and not erin.is_staff


def test_it_creates_staff(stdin):
    stdin("a-Long-pass-42\n")
    _run("ops", "--staff", "--password-stdin")
    assert User.objects.get(username="ops").is_staff


def test_it_refuses_a_weak_password(stdin):
    stdin("password\n")
    with pytest.raises(CommandError, match="too common|too short"):
        _run("erin", "--password-stdin")
    assert not User.objects.exists()


def test_it_prints_an_invite_link(settings):
    settings.SITE_URL = "https://anon.example.org"
    out = _run("frank", "--invite")
    assert "https://anon.example.org/accounts/invite/" in out
    assert Invite.objects.get().username == "frank"


def test_it_mails_the_invite_when_mail_is_configured(settings):
    settings.EMAIL_HOST = "smtp.example.test"
    out = _run("frank", "--invite", "--email", "frank@example.org")
    assert "mailed to frank@example.org" in out and len(mail.outbox) == 1


def test_an_existing_user_is_an_error_unless_exists_ok(alice, stdin):
    stdin("a-Long-pass-42\n")
    with pytest.raises(CommandError, match="already exists"):
        _run("alice", "--password-stdin")
    assert "nothing changed" in _run("alice", "--invite", "--exists-ok")
    assert not Invite.objects.exists()
