// Behaviour that would otherwise need inline handlers, which the Content Security Policy
// forbids (script-src 'self', no 'unsafe-inline' or 'unsafe-eval').
"use strict";

// Polling elements marked data-poll-when-visible skip their request while the tab is hidden.
document.addEventListener("htmx:beforeRequest", (event) => {
  const elt = event.detail && event.detail.elt;
  if (elt && elt.hasAttribute("data-poll-when-visible") && document.visibilityState !== "visible") {
    event.preventDefault();
  }
});

// A new mechanism's settings were swapped in: refresh the receipt preview.
document.addEventListener("htmx:afterSettle", (event) => {
  if (event.target && event.target.id === "params") {
    htmx.trigger("#submit-form", "change");
  }
});

// Forms with data-confirm ask before they submit.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});
