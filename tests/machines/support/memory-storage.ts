// A Storage (the localStorage interface) kept in memory, so node tests can assert exactly what the browser would keep.
export class MemoryStorage implements Storage {
  #values = new Map<string, string>()

  get length(): number {
    return this.#values.size
  }

  clear(): void {
    this.#values.clear()
  }

  getItem(key: string): string | null {
    return this.#values.get(key) ?? null
  }

  key(index: number): string | null {
    return [...this.#values.keys()][index] ?? null
  }

  removeItem(key: string): void {
    this.#values.delete(key)
  }

  setItem(key: string, value: string): void {
    this.#values.set(key, String(value))
  }
}

/** Installs a fresh MemoryStorage as globalThis.localStorage (what the app's default persistence writes to). */
export function installLocalStorage(): MemoryStorage {
  const storage = new MemoryStorage()
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true })
  return storage
}

/** Installs a fresh MemoryStorage as globalThis.sessionStorage (where a session not remembered is kept). */
export function installSessionStorage(): MemoryStorage {
  const storage = new MemoryStorage()
  Object.defineProperty(globalThis, 'sessionStorage', { value: storage, configurable: true, writable: true })
  return storage
}
