// Apply the saved theme before the first paint so a dark-theme member never sees a white flash. A file rather than
// an inline script: the Content-Security-Policy allows script from 'self' only (docs/security.md, "In the browser").
// The theme actor (src/machines/theme) owns the key and keeps the class in sync afterwards.
try {
  var saved = JSON.parse(localStorage.getItem('theme-storage') || 'null')
  if (saved && saved.context && saved.context.theme === 'dark') document.documentElement.classList.add('dark')
} catch {
  // No storage or a bad value: the light theme until the app starts.
}
