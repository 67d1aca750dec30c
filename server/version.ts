import { readFileSync } from 'node:fs'

/** package.json's version, read once (health reports it so a deploy can be checked). */
export const appVersion: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version
