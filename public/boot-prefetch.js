// A returning member's first requests, started with the HTML instead of after the bundle (docs/architecture.md,
// "Boot"); the app adopts the answers (src/machines/lib/boot-prefetch.ts). A file: the CSP allows no inline script.
;(function () {
  function tokenIn(storage) {
    try {
      var saved = JSON.parse(storage.getItem('auth-storage') || 'null')
      return saved && typeof saved.token === 'string' && saved.token !== '' ? saved.token : null
    } catch {
      return null
    }
  }
  try {
    // As session.storage.ts reads it: the tab's session first, then the browser's.
    var token = tokenIn(window.sessionStorage) || tokenIn(window.localStorage)
    if (!token || typeof fetch !== 'function') return
    // The signed-in screens' chunks, named by the build (vite.config.ts signedInChunks).
    var chunks = document.querySelector('meta[name="wren-signed-in-chunks"]')
    var files = chunks ? chunks.getAttribute('content').split(' ') : []
    for (var i = 0; i < files.length; i += 1) {
      if (!files[i]) continue
      var link = document.createElement('link')
      link.rel = 'modulepreload'
      link.crossOrigin = ''
      link.href = files[i]
      document.head.appendChild(link)
    }
    var get = function (path) {
      var answer = fetch(path, { headers: { authorization: 'Bearer ' + token }, priority: 'high' })
      answer.catch(function () {})
      return answer
    }
    var boot = { token: token, startedAt: performance.now(), me: get('/api/auth/me') }
    if (window.location.pathname === '/') boot.homeFeed = get('/api/posts/feed')
    window.__wrenBoot = boot
  } catch {
    // No storage or no fetch: the app makes these requests itself.
  }
})()
