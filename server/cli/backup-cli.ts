import { parseArgs } from 'node:util'

/** What `npm run backup` and `npm run restore` share: their one file argument and how they print sizes. */

/** Reads `<file> [--force] [--help]`; prints the usage and exits on --help (0) or anything else (2). */
export function fileArgument(usage: string): { file: string; force: boolean } {
  let values: { force?: boolean; help?: boolean }
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({
      args: process.argv.slice(2),
      options: { force: { type: 'boolean' }, help: { type: 'boolean' } },
      allowPositionals: true,
    }))
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${usage}`)
    process.exit(2)
  }
  if (values.help) {
    console.log(usage)
    process.exit(0)
  }
  const [file] = positionals
  if (positionals.length !== 1 || !file) {
    console.error(usage)
    process.exit(2)
  }
  return { file, force: values.force ?? false }
}

/** 1234567 -> "1.2 MB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit += 1
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`
}
