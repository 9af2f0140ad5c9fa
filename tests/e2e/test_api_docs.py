"""The API's documentation page renders in the browser under the site's Content-Security-Policy
(Swagger UI from the app's own static files, no CDN, no inline script)."""

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_api_docs_render_every_endpoint(page, live_server, screenshot):
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.goto(f"{live_server.url}/api/docs")
    expect(page.locator(".swagger-ui .title")).to_contain_text("Anonymizer API")
    expect(page.locator(".opblock-summary-path[data-path='/api/jobs/{job_id}']")).to_have_count(1)
    expect(page.locator(".opblock-summary-path[data-path='/api/batches']")).to_have_count(2)
    screenshot("api-docs")
    assert not violations
