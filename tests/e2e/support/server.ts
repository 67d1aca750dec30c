import { serve } from '../../../server/serve'

/**
 * The walks' server: server/main.ts plus one thing only tests may do, letting link previews read pages from the local
 * page server a walk starts (tests/e2e/link-previews.spec.ts) at 127.0.0.1:E2E_PREVIEW_PORT. Every other address,
 * loopback included, keeps every rule.
 */
const previewPort = process.env.E2E_PREVIEW_PORT ?? '3219'

await serve({
  linkPreviewFetch: { allowLoopbackFor: (url) => url.hostname === '127.0.0.1' && url.port === previewPort },
})
