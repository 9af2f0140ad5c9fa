"""The user's settings page: their cap, their budget, their API tokens (shown once, hashed)."""

import pytest
from django.urls import reverse

from webapp.accounts import services
from webapp.accounts.models import ApiToken
from webapp.ledger.models import DefaultBudget, UserBudget

pytestmark = pytest.mark.django_db


def test_anonymous_is_sent_to_login(client):
    response = client.get(reverse("account_settings"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_it_shows_the_default_cap_when_the_user_has_none_of_their_own(client, alice, settings):
    settings.DEFAULT_BUDGET_EPSILON = 32.0
    client.force_login(alice)
    body = client.get(reverse("account_settings")).content.decode()
    assert 'id="cap-epsilon">32<' in body
    assert "default cap for every user" in body
    assert not UserBudget.objects.exists()  # looking does not create a row


def test_it_shows_a_personal_cap(client, alice):
    UserBudget.objects.create(user=alice, epsilon_cap=8.5, delta_cap=1e-5)
    client.force_login(alice)
    body = client.get(reverse("account_settings")).content.decode()
    assert 'id="cap-epsilon">8.5<' in body and "An operator set this cap for you" in body


def test_it_says_when_there_is_no_cap(client, alice):
    DefaultBudget.objects.create(pk=1, epsilon_cap=None, delta_cap=1e-3)
    client.force_login(alice)
    assert "No cap" in client.get(reverse("account_settings")).content.decode()


def test_a_new_token_is_shown_once_and_stored_hashed(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("account_settings"), {"name": "nightly", "expires_in_days": "30"}
    )
    secret = response.context["new_token"]["secret"]
    assert secret.startswith("anon_") and secret in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    token = ApiToken.objects.get()
    assert token.name == "nightly" and token.user == alice and token.expires_at is not None
    assert token.key_sha256 == services.sha256_hex(secret)
    assert secret not in str(ApiToken.objects.values().get())
    again = client.get(reverse("account_settings")).content.decode()
    assert secret not in again and "nightly" in again and token.prefix in again


def test_a_token_without_a_name_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(reverse("account_settings"), {"name": "", "expires_in_days": ""})
    assert response.context["form"].errors["name"] and not ApiToken.objects.exists()


def test_the_owner_revokes_a_token(client, alice):
    token, secret = services.create_token(alice, "ci")
    client.force_login(alice)
    response = client.post(reverse("token_revoke", args=[token.pk]))
    assert response.status_code == 302
    assert services.user_for_token(secret) is None
    assert "ci" not in client.get(reverse("account_settings")).context["tokens"].values_list(
        "name", flat=True
    )


def test_it_returns_404_when_another_user_revokes_a_token(client, alice, bob):
    token, secret = services.create_token(alice, "ci")
    client.force_login(bob)
    assert client.post(reverse("token_revoke", args=[token.pk])).status_code == 404
    assert services.user_for_token(secret) == alice


def test_anonymous_cannot_revoke_a_token(client, alice):
    token, secret = services.create_token(alice, "ci")
    assert client.post(reverse("token_revoke", args=[token.pk])).status_code == 302
    assert services.user_for_token(secret) == alice


def test_other_users_tokens_are_not_listed(client, alice, bob):
    services.create_token(alice, "alices-script")
    client.force_login(bob)
    assert "alices-script" not in client.get(reverse("account_settings")).content.decode()
