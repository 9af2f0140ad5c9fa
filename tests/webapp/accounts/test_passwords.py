"""Changing and resetting passwords with Django's own views, in the app's templates."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from webapp.accounts import services

pytestmark = pytest.mark.django_db
NEW = "a-new-Long-phrase-77"


def test_a_user_changes_their_password(client, alice):
    client.force_login(alice)
    page = client.get(reverse("password_change"))
    assert page.status_code == 200 and b'id="password-change-form"' in page.content
    response = client.post(
        reverse("password_change"),
        {"old_password": "alice-password-1", "new_password1": NEW, "new_password2": NEW},
    )
    assert response["Location"] == reverse("password_change_done")
    alice.refresh_from_db()
    assert alice.check_password(NEW)


def test_a_wrong_old_password_changes_nothing(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW, "new_password2": NEW},
    )
    assert response.context["form"].errors["old_password"]
    alice.refresh_from_db()
    assert alice.check_password("alice-password-1")


def test_without_mail_the_reset_page_says_to_ask_an_operator(client, alice):
    alice.email = "alice@example.org"
    alice.save()
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})
    assert b'id="reset-unavailable"' in response.content
    assert not mail.outbox


def test_with_mail_a_reset_link_is_mailed_and_sets_a_new_password(client, alice, mail_on):
    alice.email = "alice@example.org"
    alice.save()
    response = client.post(reverse("password_reset"), {"email": "alice@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert [m.to for m in mail.outbox] == [["alice@example.org"]]
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    _use_reset_link(client, link.group(1))
    alice.refresh_from_db()
    assert alice.check_password(NEW)


def test_staff_make_a_reset_link_for_a_user_without_mail(client, alice, operator):
    client.force_login(operator)
    response = client.post(reverse("invites"), {"action": "reset", "username": "alice"})
    url = response.context["reset_link"]["url"]
    client.logout()
    _use_reset_link(client, url.removeprefix("http://testserver"))
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    again = client.get(url.removeprefix("http://testserver"), follow=True)
    assert b'id="reset-invalid"' in again.content  # used once, then invalid


def test_a_reset_link_for_an_unknown_user_is_refused(client, operator):
    client.force_login(operator)
    response = client.post(reverse("invites"), {"action": "reset", "username": "nobody"})
    assert response.context["reset_form"].errors["username"]


def test_reset_link_service_points_at_the_confirm_view(alice, settings):
    settings.SITE_URL = "https://anon.example.org"
    assert services.password_reset_url(alice).startswith(
        "https://anon.example.org/accounts/password/reset/"
    )


def _use_reset_link(client, path: str) -> None:  # type: ignore[no-untyped-def]
    form_page = client.get(path, follow=True)
    assert b'id="password-reset-confirm-form"' in form_page.content
    done = client.post(
        form_page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW}
    )
    assert done["Location"] == reverse("password_reset_complete")
