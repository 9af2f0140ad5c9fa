"""The Content-Security-Policy (no inline script or style) leaves htmx and the page
behaviour working: mechanism switch, live preview, delete confirmation, admin pages."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import choose_mechanism
from tests.factories import succeeded_job

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def watch_csp(page) -> list[str]:  # type: ignore[no-untyped-def]
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text)
            if "Content Security Policy" in message.text
            or "htmx:evalDisallowedError" in message.text
            else None
        ),
    )
    return violations


def test_htmx_pages_work_under_the_policy_without_violations(
    logged_in, live_server, django_user_model
):
    page = logged_in
    violations = watch_csp(page)
    page.reload()
    page.fill("textarea[name=text]", "Mail jane@example.com today.")
    choose_mechanism(page, "redact")  # swaps the settings fieldset, which refreshes the preview
    page.select_option("select[name=detector]", "regex")
    expect(page.locator("#preview-notion")).to_have_text("none")
    expect(page.locator("#params")).to_have_attribute("data-mechanism", "redact")

    alice = django_user_model.objects.get(username="alice")
    job = succeeded_job(alice)
    page.goto(f"{live_server.url}/jobs/{job.pk}/")
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.click("#delete-original")
    assert dialogs and "Delete the original" in dialogs[0]
    expect(page.locator("#delete-original")).to_be_visible()  # dismissed: nothing deleted

    alice.is_staff = alice.is_superuser = True
    alice.save(update_fields=["is_staff", "is_superuser"])
    page.goto(f"{live_server.url}/admin/auth/user/")
    expect(page.locator("#result_list")).to_be_visible()
    page.goto(f"{live_server.url}/admin/auth/user/{alice.pk}/change/")
    expect(page.locator("#user_form")).to_be_visible()
    assert violations == []
