"""A form sent with a stale security token (CSRF failure) goes back to the user, not to a dead
end: the submit and batch forms come back filled in with what was sent, and an expired login
page simply asks again. Anything else, or a request from another site, gets the plain page.

The filled-in form is shown only for requests from this site's own pages (Origin or Referer),
so another site cannot use a forged request to put its text into a user's form.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve
from django.views.csrf import csrf_failure as django_csrf_failure

from anonymizer import list_mechanisms

EXPIRED = (
    "Your session changed since this page was loaded (for example you logged in again in "
    "another tab), so the form was not sent. What you entered is below: check it and send it "
    "again{files}."
)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    page = _url_name(request)
    if request.method == "POST" and _from_this_site(request):
        if page == "login":
            messages.info(request, "The login page had expired; please log in again.")
            return redirect("login")
        if page in FORM_PAGES and request.user.is_authenticated:
            return _form_again(request, page)
    return django_csrf_failure(request, reason, template_name="403_csrf.html")


def _form_again(request: HttpRequest, page: str) -> HttpResponse:
    form_class, template = FORM_PAGES[page]()
    kept = {
        key: values if len(values) > 1 else values[0]
        for key, values in request.POST.lists()
        if key != "csrfmiddlewaretoken"
    }
    files = " (files cannot be kept: choose them again)" if request.FILES else ""
    messages.warning(request, EXPIRED.format(files=files))
    form = form_class(initial=kept, user=request.user)
    context = {"form": form, "mechanisms": list_mechanisms()}
    return render(request, template, context, status=403)


def _submit_form():  # type: ignore[no-untyped-def]
    from webapp.jobs.forms import SubmitForm

    return SubmitForm, "jobs/submit.html"


def _batch_form():  # type: ignore[no-untyped-def]
    from webapp.batches.forms import BatchForm

    return BatchForm, "batches/new.html"


FORM_PAGES = {"submit": _submit_form, "batch_new": _batch_form}


def _url_name(request: HttpRequest) -> str | None:
    try:
        return resolve(request.path_info).url_name
    except Resolver404:
        return None


def _from_this_site(request: HttpRequest) -> bool:
    own = f"{request.scheme}://{request.get_host()}"
    origin = request.headers.get("Origin")
    if origin:
        return origin == own
    referer = request.headers.get("Referer", "")
    return referer == own or referer.startswith(own + "/")
