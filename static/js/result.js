// Copy the whole output (not only the page shown) to the clipboard.
(function () {
  function setup() {
    var button = document.getElementById("copy-output");
    if (!button) return;
    button.hidden = false;
    button.onclick = function () {
      var source = document.querySelector(button.dataset.copy);
      var status = document.getElementById("copy-status");
      var done = function () { status.textContent = "Copied."; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(source.value).then(done, function () { fallback(source, done); });
      } else {
        fallback(source, done);
      }
    };
  }
  function fallback(source, done) {
    source.closest("details").open = true;
    source.select();
    if (document.execCommand("copy")) done();
  }
  document.addEventListener("DOMContentLoaded", setup);
  document.addEventListener("htmx:afterSettle", setup);
})();
