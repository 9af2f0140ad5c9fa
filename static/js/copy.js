// "Copy" buttons next to one-time secrets: <button data-copy="#input-id">. No inline handlers,
// so a strict Content-Security-Policy (script-src 'self') allows it.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  event.preventDefault();
  const field = document.querySelector(button.dataset.copy);
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Press Ctrl+C";
  }
});
