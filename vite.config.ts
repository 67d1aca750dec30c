import { readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { defineConfig, type Plugin } from 'vitest/config'
import react from '@vitejs/plugin-react'

/**
 * Writes `<file>.br` and `<file>.gz` next to every built script, stylesheet, HTML and SVG file, which the server sends
 * to browsers that accept them (@fastify/static `preCompressed`, server/http/spa.ts): a first load moves about a third
 * of the bytes (issue 13).
 */
function precompress(): Plugin {
  let outDir = 'dist'
  return {
    name: 'wren-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((f) => /\.(js|css|html|svg|json)$/.test(f))
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file)
          const body = await readFile(full)
          if (body.length < 1024) return
          await writeFile(`${full}.gz`, await promisify(gzip)(body, { level: 9 }))
          await writeFile(
            `${full}.br`,
            await promisify(brotliCompress)(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
          )
        }),
      )
    },
  }
}

/**
 * Names the signed-in screens' chunk and every chunk it imports statically (beyond what the entry already imports) in
 * index.html's `<meta name="wren-signed-in-chunks">` (placed just before the boot script, which reads it). public/boot-prefetch.js preloads them when a
 * session is stored, so a returning member's Home downloads alongside the main bundle instead of after it has run
 * (src/views/routes/chunks.ts starts that import only once the bundle is running). A visitor signing in or up never
 * fetches them early.
 */
function signedInChunks(): Plugin {
  return {
    name: 'wren-signed-in-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html
        const chunks = new Map<string, { imports: string[] }>()
        let entry: string | undefined
        let routes: string | undefined
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk') continue
          chunks.set(output.fileName, output)
          if (output.isEntry) entry = output.fileName
          if (output.facadeModuleId?.endsWith('src/views/routes/SignedInRoutes.tsx')) routes = output.fileName
        }
        if (!entry || !routes) throw new Error('wren-signed-in-chunks: the entry or SignedInRoutes chunk is missing')
        const graph = (start: string) => {
          const seen = new Set<string>()
          const visit = (file: string) => {
            if (seen.has(file)) return
            seen.add(file)
            for (const next of chunks.get(file)?.imports ?? []) visit(next)
          }
          visit(start)
          return seen
        }
        const loaded = graph(entry)
        const files = [...graph(routes)].filter((file) => !loaded.has(file)).map((file) => `/${file}`)
        const placeholder = '<meta name="wren-signed-in-chunks" content="" />'
        if (!html.includes(placeholder)) throw new Error(`wren-signed-in-chunks: index.html has no ${placeholder}`)
        return html.replace(placeholder, `<meta name="wren-signed-in-chunks" content="${files.join(' ')}" />`)
      },
    },
  }
}

/** API test files that need a process of their own (see the `api-own-process` project). */
const API_OWN_PROCESS = 'tests/api/seed.test.ts'

// One config for the SPA build and for vitest: the top level stays as the design card fixes it.
export default defineConfig({
  plugins: [react(), signedInChunks(), precompress()],
  // PostCSS (Panda) config lives in .config/postcss.config.cjs.
  css: { postcss: new URL('./.config', import.meta.url).pathname },
  resolve: { alias: { 'styled-system': new URL('./styled-system', import.meta.url).pathname } },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/media': 'http://127.0.0.1:3000',
      '/socket.io': { target: 'http://127.0.0.1:3000', ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // Every browser the app supports knows <link rel="modulepreload">; one that does not just fetches a chunk when it
    // is imported, so the polyfill would be first-load bytes for nobody.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The libraries every screen runs (React, XState, the router) in one chunk: the entry needs all of them anyway,
        // and left to itself the bundler splits off whatever part a lazy chunk imports alone (XState's actor helpers,
        // a React shim) into more first-load requests, each compressed on its own.
        codeSplitting: {
          groups: [{ name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|xstate|@xstate[\\/]react|use-sync-external-store|wouter|regexparam)[\\/]/ }],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'machines',
          include: ['tests/machines/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/machines/support/no-warnings.ts'],
          // One module graph per worker instead of one per file: re-importing xstate, @xstate/graph and the machines
          // for each of the 71 files was over half the suite's CPU time (86 s -> 39 s measured). Every file builds
          // its own actors, storage and fakes in its own scope, so nothing a file keeps can reach another.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/api/global-setup.ts'],
          setupFiles: ['tests/api/no-leak-warnings.ts'],
          exclude: [API_OWN_PROCESS],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // PGlite and argon2 are CPU-bound; two cores here.
          maxWorkers: 2,
          // One module graph per worker: importing the whole server (fastify, drizzle, PGlite, the contract) again
          // for each file cost about 45% of a pass's CPU (330 s -> 183 s measured). Each file still gets its own
          // database and apps (tests/api/harness.ts); the server keeps no state in its modules but the id clock,
          // which only the seed file minds.
          isolate: false,
        },
      },
      {
        extends: true,
        // The seed makes ids for past times, which a process that already made ids for now refuses to do.
        test: {
          name: 'api-own-process',
          include: [API_OWN_PROCESS],
          setupFiles: ['tests/api/no-leak-warnings.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        // The contract fuzz test: once per `npm test`, on PGlite (tests/run.mjs), not in each API pass.
        test: { name: 'fuzz', include: ['tests/fuzz/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
})
