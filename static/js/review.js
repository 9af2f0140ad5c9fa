// Selecting text in the document fills the "mark" form with the text and its offset.
(function () {
  function offsetOf(node, offset) {
    var el = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
    if (!el || el.dataset.start === undefined) return null;
    return parseInt(el.dataset.start, 10) + offset;
  }
  document.addEventListener("mouseup", function () {
    var selection = window.getSelection();
    var area = document.getElementById("review-text");
    if (!area || !selection || selection.isCollapsed) return;
    if (!area.contains(selection.anchorNode) || !area.contains(selection.focusNode)) return;
    var text = selection.toString();
    if (!text.trim()) return;
    var a = offsetOf(selection.anchorNode, selection.anchorOffset);
    var f = offsetOf(selection.focusNode, selection.focusOffset);
    var lead = text.length - text.replace(/^\s+/, "").length;
    document.getElementById("add-text").value = text.trim();
    document.getElementById("add-start").value =
      a !== null && f !== null ? String(Math.min(a, f) + lead) : "";
    document.getElementById("add-category").focus();
  });
  document.addEventListener("input", function (event) {
    if (event.target.id === "add-text") document.getElementById("add-start").value = "";
    if (event.target.id === "threshold") event.target.nextElementSibling.value = Number(event.target.value).toFixed(2);
  });
})();
