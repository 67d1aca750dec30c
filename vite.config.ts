import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

// One config for the SPA build and for vitest: the top level stays as the design card fixes it.
export default defineConfig({
  plugins: [react()],
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
  build: { outDir: 'dist', sourcemap: true },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'machines', include: ['tests/machines/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // PGlite and argon2 are CPU-bound; two cores here.
          maxWorkers: 2,
        },
      },
    ],
  },
})
