"""Accounts in the browser: an operator invites, the invitee sets a password and logs in, and
makes an API token on the settings page that then works against the API."""

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shoot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    """A full-page screenshot of any page (the `screenshot` fixture covers only `page`)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def log_in(page, base_url: str, username: str, password: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/")


def invite(page, base_url: str, username: str) -> str:  # type: ignore[no-untyped-def]
    """As a logged-in operator: make an invite link and read it off the page."""
    page.goto(f"{base_url}/accounts/invites/")
    page.fill("#invite-form input[name=username]", username)
    page.click("#invite-form button[type=submit]")
    return page.locator("#invite-url").input_value()


def accept_invite(page, url: str, password: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(url)
    page.wait_for_url("**/accounts/invite/set-password/")
    page.fill("input[name=new_password1]", password)
    page.fill("input[name=new_password2]", password)
    page.click("#set-password-form button[type=submit]")
    page.wait_for_url("**/accounts/login/")


def test_invite_set_password_log_in_and_make_a_token(
    browser, page, live_server, django_user_model, screenshot
):
    django_user_model.objects.create_user("operator", password="operator-pass-1", is_staff=True)
    log_in(page, live_server.url, "operator", "operator-pass-1")
    url = invite(page, live_server.url, "dana")
    assert url.startswith(f"{live_server.url}/accounts/invite/")
    screenshot("invites")

    newcomer = browser.new_context().new_page()
    accept_invite(newcomer, url, "dana-Long-pass-42")
    expect(newcomer.locator(".flash")).to_contain_text("Log in as dana")
    log_in(newcomer, live_server.url, "dana", "dana-Long-pass-42")
    newcomer.click("text=Settings")
    expect(newcomer.locator("#your-cap")).to_contain_text("ε = 64")
    newcomer.fill("#token-form input[name=name]", "nightly export")
    newcomer.click("#token-form button[type=submit]")
    secret = newcomer.locator("#new-token-value").input_value()
    assert secret.startswith("anon_")
    expect(newcomer.locator("#token-table")).to_contain_text("nightly export")
    shoot(newcomer, "settings-tokens")

    request = urllib.request.Request(
        f"{live_server.url}/api/budget", headers={"Authorization": f"Bearer {secret}"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert json.load(response)["epsilon_cap"] == 64.0

    newcomer.goto(url)  # the link worked once
    expect(newcomer.locator("#invite-problem")).to_contain_text("already used")
    newcomer.context.close()
