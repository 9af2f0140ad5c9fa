"""Every main page fits a phone-width screen (390 px): nothing scrolls sideways except inside
a table's own scroller. Screenshots go to test-artifacts/phone-*.png."""

import pytest

from tests.factories import succeeded_job
from tests.webapp.batches.helpers import make_batch

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
# elements reaching past the screen's right edge, except inside a box that scrolls or clips
OVERFLOW = """() => {
  const clipped = el => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(a).overflowX)) return true;
    }
    return false;
  };
  return [...document.querySelectorAll('body *')]
    .filter(el => el.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(el))
    .map(el => el.tagName + (el.id ? '#' + el.id : '') + '.' + el.className).slice(0, 5);
}"""


def test_the_main_pages_fit_a_phone_screen(logged_in, live_server, django_user_model, monkeypatch):
    monkeypatch.setattr("webapp.jobs.services.enqueue_rewrite", lambda job_id: None)
    page = logged_in
    alice = django_user_model.objects.get(username="alice")
    alice.is_staff = True
    alice.save()
    job = succeeded_job(alice, "Write to Jane Doe at jane.doe@example.com about the merger.")
    batch = make_batch(alice, ["Mail a@b.org", "Call +44 20 7946 0958"])
    page.set_viewport_size(PHONE)
    pages = {
        "submit": "/",
        "job": f"/jobs/{job.pk}/",
        "history": "/history/",
        "batch-new": "/batches/new/",
        "batch": f"/batches/{batch.pk}/",
        "settings": "/accounts/settings/",
        "operator": "/operator/",
    }
    problems = {}
    for name, path in pages.items():
        page.goto(live_server.url + path)
        page.wait_for_load_state("load")
        page.wait_for_timeout(500)  # the HTMX fragments that load with the page
        page.screenshot(path=f"test-artifacts/phone-{name}.png", full_page=True)
        wide = page.evaluate(OVERFLOW)
        if wide or page.evaluate("document.scrollingElement.scrollWidth > window.innerWidth"):
            problems[name] = wide
    assert not problems
