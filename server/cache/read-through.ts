import { SingleFlight } from './single-flight'

/**
 * The read-through steps every cache of the read side takes, written once: serve what is cached, load what is missing
 * (awaited, in one query), reload what is stale behind the answer (served meanwhile: no invalidation came, so it is
 * most likely still exact), and store what a load read only if no invalidation came while it ran.
 */

/** What a batch lookup found: values served now, keys to load before answering, keys to reload behind it. */
export interface BatchHit<K, V> {
  found: Map<K, V>
  missing: K[]
  stale: K[]
}

/**
 * Loads of one cache, shared by concurrent callers: keyed by the cache's generation, so concurrent misses of the same
 * keys run one query, but a request that comes after an invalidation never joins a load that started before it.
 * `load` gets the generation it started in, for the cache's `storeIfFresh`.
 */
export class CacheLoads<V> {
  private readonly flights: SingleFlight<string, V>

  constructor(
    private readonly cache: { readonly generation: number },
    enabled: boolean,
  ) {
    this.flights = new SingleFlight(enabled)
  }

  run(key: string, load: (generation: number) => Promise<V>): Promise<V> {
    const generation = this.cache.generation
    return this.flights.run(`${generation}:${key}`, () => load(generation))
  }
}

/** `hit` with the keys in `fresh` moved to `missing`: read from the database whatever is cached. */
export function bypassing<K, V>(lookup: (keys: K[]) => BatchHit<K, V>, keys: readonly K[], fresh?: ReadonlySet<K>): BatchHit<K, V> {
  if (!fresh) return lookup([...keys])
  const hit = lookup(keys.filter((key) => !fresh.has(key)))
  hit.missing.push(...keys.filter((key) => fresh.has(key)))
  return hit
}

/** A batch: the hits, the missing loaded and added, the stale reloaded behind the answer. */
export async function readThrough<K, V>(
  hit: BatchHit<K, V>,
  load: (keys: K[]) => Promise<Iterable<readonly [K, V]>>,
  warn: (err: unknown) => void,
): Promise<Map<K, V>> {
  if (hit.stale.length > 0) void load(hit.stale).catch(warn)
  if (hit.missing.length > 0) for (const [key, value] of await load(hit.missing)) hit.found.set(key, value)
  return hit.found
}

/** One entry: a miss is loaded when `loadOnMiss` (else undefined), a stale hit served while it reloads behind. */
export async function readThroughOne<V>(
  cached: { value: V; stale: boolean } | undefined,
  load: () => Promise<V>,
  options: { loadOnMiss: boolean; warn: (err: unknown) => void },
): Promise<V | undefined> {
  if (!cached) return options.loadOnMiss ? load() : undefined
  if (cached.stale) void load().catch(options.warn)
  return cached.value
}
