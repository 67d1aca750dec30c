import closeWithGrace from 'close-with-grace'
import { buildApp, type BuildAppOptions } from './app'
import { type Config, loadConfig } from './config'
import { drainAndClose } from './http/drain'
import { attachRealtime } from './realtime'

/**
 * The server process: parse the environment (or exit with what is wrong), open and migrate the database, serve API,
 * web app and realtime on one port, and close cleanly on SIGINT/SIGTERM (in-flight requests finish, sockets drop,
 * the database closes) within 10 s after DRAIN_DELAY_MS (server/http/drain.ts).
 *
 * server/main.ts serves with no options. `options` exist for the end-to-end walks' own entry point
 * (tests/e2e/support/server.ts), which loosens what only tests may (BuildAppOptions.linkPreviewFetch); nothing in the
 * environment reaches them.
 */

function publicUrl(config: Config): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`
}

export async function serve(options: Pick<BuildAppOptions, 'linkPreviewFetch'> = {}): Promise<void> {
  const startedAt = performance.now()
  const config = loadConfig()
  const app = await buildApp({ config, controlSocket: true, ...options })
  await attachRealtime(app, { redisUrl: config.redisUrl })

  closeWithGrace({ delay: config.drainDelayMs + 10_000, logger: app.log }, async ({ err, signal }) => {
    if (err) {
      app.log.error({ err }, 'closing after an unexpected error')
      await app.close()
      return
    }
    app.log.info(`${signal ?? 'close'} received, draining${config.drainDelayMs ? ` for ${config.drainDelayMs} ms` : ''}`)
    await drainAndClose(app, config.drainDelayMs)
  })

  await app.listen({ port: config.port, host: config.host })
  app.log.info(
    `Wren is running at ${publicUrl(config)} (${app.services.databaseKind}, ready in ${Math.round(performance.now() - startedAt)} ms)`,
  )
}
