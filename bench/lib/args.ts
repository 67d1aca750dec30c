/** A numeric flag of a bench (`--duration 10`), or its default when not given. */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
