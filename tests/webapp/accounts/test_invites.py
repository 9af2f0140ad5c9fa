"""Invites: staff make one-time links; the invitee sets a password; links work once."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from webapp.accounts import services
from webapp.accounts.models import Invite

pytestmark = pytest.mark.django_db
User = get_user_model()


def _invite_secret(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def _accept(client, secret: str, password: str = "a-Long-pass-phrase-42"):  # type: ignore[no-untyped-def]
    start = client.get(reverse("invite_accept", args=[secret]))
    if start.status_code != 302:
        return start
    return client.post(
        reverse("invite_set_password"),
        {"new_password1": password, "new_password2": password},
    )


# --- who may invite ------------------------------------------------------------------------


def test_anonymous_is_sent_to_login_from_the_invites_page(client):
    response = client.get(reverse("invites"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_it_returns_403_to_users_who_are_not_staff(client, alice):
    client.force_login(alice)
    assert client.get(reverse("invites")).status_code == 403
    assert client.post(reverse("invites"), {"action": "invite", "username": "x"}).status_code == 403
    assert not Invite.objects.exists()


def test_staff_get_a_link_shown_once_and_only_its_hash_is_stored(client, operator):
    client.force_login(operator)
    response = client.post(reverse("invites"), {"action": "invite", "username": "dana"})
    assert response.status_code == 200
    url = response.context["issued"].url
    assert url.startswith("http://testserver/accounts/invite/")
    assert url in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    secret = _invite_secret(url)
    invite = Invite.objects.get()
    assert invite.username == "dana" and invite.created_by == operator
    assert invite.token_sha256 == services.sha256_hex(secret) and secret not in str(
        Invite.objects.values().get()
    )
    assert secret not in client.get(reverse("invites")).content.decode()
    assert not mail.outbox


def test_the_link_is_mailed_when_mail_is_configured(client, operator, mail_on):
    client.force_login(operator)
    response = client.post(
        reverse("invites"), {"action": "invite", "username": "dana", "email": "dana@example.org"}
    )
    url = response.context["issued"].url
    assert [m.to for m in mail.outbox] == [["dana@example.org"]]
    assert url in mail.outbox[0].body
    assert "mailed to dana@example.org" in response.content.decode()


def test_an_address_without_mail_configured_is_not_mailed(client, operator):
    client.force_login(operator)
    client.post(
        reverse("invites"), {"action": "invite", "username": "dana", "email": "dana@example.org"}
    )
    assert not mail.outbox


@pytest.mark.parametrize("username", ["alice", "bad name!", ""])
def test_an_invite_for_a_taken_or_invalid_username_is_refused(client, operator, alice, username):
    client.force_login(operator)
    response = client.post(reverse("invites"), {"action": "invite", "username": username})
    assert response.context["invite_form"].errors["username"]
    assert not Invite.objects.exists()


def test_a_second_open_invite_for_the_same_name_is_refused(operator):
    services.create_invite(username="dana", created_by=operator)
    with pytest.raises(Exception, match="open invite"):
        services.create_invite(username="dana", created_by=operator)


# --- accepting -----------------------------------------------------------------------------


def test_the_invitee_sets_a_password_and_can_log_in(client, operator):
    issued = services.create_invite(username="dana", email="d@example.org", created_by=operator)
    secret = _invite_secret(issued.url)
    start = client.get(reverse("invite_accept", args=[secret]))
    assert start["Location"] == reverse("invite_set_password")  # the secret leaves the URL
    page = client.get(start["Location"])
    assert "dana" in page.content.decode()
    done = client.post(
        reverse("invite_set_password"),
        {"new_password1": "a-Long-pass-phrase-42", "new_password2": "a-Long-pass-phrase-42"},
    )
    assert done.status_code == 302 and done["Location"] == reverse("login")
    dana = User.objects.get(username="dana")
    assert dana.email == "d@example.org" and not dana.is_staff
    logged_in = client.post(
        reverse("login"), {"username": "dana", "password": "a-Long-pass-phrase-42"}
    )
    assert logged_in.status_code == 302 and logged_in["Location"] == reverse("submit")
    invite = Invite.objects.get()
    assert invite.status == "accepted" and invite.user == dana


def test_a_staff_invite_makes_a_staff_account(client, operator):
    issued = services.create_invite(username="ops2", is_staff=True, created_by=operator)
    _accept(client, _invite_secret(issued.url))
    assert User.objects.get(username="ops2").is_staff


def test_a_link_works_only_once(client, operator):
    secret = _invite_secret(services.create_invite(username="dana").url)
    _accept(client, secret)
    client.logout()
    again = client.get(reverse("invite_accept", args=[secret]))
    assert again.status_code == 410 and "already used" in again.content.decode()
    assert User.objects.filter(username="dana").count() == 1


def test_a_weak_password_is_refused_and_no_account_is_made(client):
    secret = _invite_secret(services.create_invite(username="dana").url)
    response = _accept(client, secret, password="password")
    assert response.status_code == 200
    assert response.context["form"].errors["new_password2"]
    assert not User.objects.filter(username="dana").exists()
    assert Invite.objects.get().status == "open"


def test_an_expired_link_is_refused(client):
    secret = _invite_secret(services.create_invite(username="dana").url)
    Invite.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = client.get(reverse("invite_accept", args=[secret]))
    assert response.status_code == 410 and "expired" in response.content.decode()


def test_a_withdrawn_link_is_refused(client, operator):
    secret = _invite_secret(services.create_invite(username="dana").url)
    client.force_login(operator)
    client.post(reverse("invite_revoke", args=[Invite.objects.get().pk]))
    client.logout()
    response = _accept(client, secret)
    assert response.status_code == 410 and "withdrawn" in response.content.decode()
    assert not User.objects.filter(username="dana").exists()


def test_an_unknown_link_is_refused(client):
    response = client.get(reverse("invite_accept", args=["not-a-real-secret"]))
    assert response.status_code == 410 and "not valid" in response.content.decode()


def test_the_set_password_page_without_an_invite_in_the_session_is_refused(client):
    response = client.post(
        reverse("invite_set_password"),
        {"new_password1": "a-Long-pass-phrase-42", "new_password2": "a-Long-pass-phrase-42"},
    )
    assert response.status_code == 410
    assert User.objects.count() == 0


def test_an_account_created_meanwhile_under_the_name_stops_the_invite(client, django_user_model):
    secret = _invite_secret(services.create_invite(username="dana").url)
    client.get(reverse("invite_accept", args=[secret]))
    django_user_model.objects.create_user("dana", password="x-another-pass-9")
    response = client.post(
        reverse("invite_set_password"),
        {"new_password1": "a-Long-pass-phrase-42", "new_password2": "a-Long-pass-phrase-42"},
    )
    assert response.status_code == 410 and "created meanwhile" in response.content.decode()
    assert django_user_model.objects.get(username="dana").check_password("x-another-pass-9")


def test_an_expired_invite_does_not_block_a_new_one_for_the_name():
    services.create_invite(username="dana")
    Invite.objects.update(expires_at=timezone.now() - timedelta(days=1))
    services.create_invite(username="dana")
    assert [i.status for i in Invite.objects.order_by("pk")] == ["revoked", "open"]
