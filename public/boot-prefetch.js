// Starts the first screen's requests while the app's JavaScript is still downloading: the signed-in screens' chunks,
// the session check and, when the page opened is Home, the feed's first page. Without this they wait for the whole bundle, then for each other (the
// feed starts only once the session check has answered), which on a slow phone is most of the time to the first post.
// The app adopts these answers (src/machines/lib/boot-prefetch.ts) or, when one failed, asks again as usual. Only GET
// requests the app would make anyway, with the token it would send. A file rather than an inline script: the
// Content-Security-Policy allows script from 'self' only (docs/security.md, "In the browser").
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
    // Where src/machines/session/session.storage.ts reads it: the tab's session first, then the browser's.
    var token = tokenIn(window.sessionStorage) || tokenIn(window.localStorage)
    if (!token || typeof fetch !== 'function') return
    var get = function (path) {
      var answer = fetch(path, { headers: { authorization: 'Bearer ' + token }, priority: 'high' })
      // An answer nobody adopts (the app went elsewhere) must not surface as an unhandled rejection.
      answer.catch(function () {})
      return answer
    }
    // The signed-in screens' chunks (named by the build, vite.config.ts signedInChunks): they download beside the main
    // bundle rather than after it has started.
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
    var boot = { token: token, startedAt: performance.now(), me: get('/api/auth/me') }
    if (window.location.pathname === '/') boot.homeFeed = get('/api/posts/feed')
    window.__wrenBoot = boot
  } catch {
    // No storage or no fetch: the app makes both requests itself.
  }
})()
