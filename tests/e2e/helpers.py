"""Page actions shared by the end-to-end tests."""

from playwright.sync_api import expect


def choose_mechanism(page, name: str) -> None:  # type: ignore[no-untyped-def]
    """Pick a mechanism and wait until its settings fieldset has been swapped in."""
    with page.expect_response("**/submit/params/**"):
        page.select_option("select[name=mechanism]", name)
    expect(page.locator("#params")).to_have_attribute("data-mechanism", name)
