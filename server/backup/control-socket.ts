import { chmod, rm } from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import type { Database, PgliteSnapshot } from '../db/client'
import type { DeletionHold } from '../storage/deletion-hold'
import { currentMigration, drizzleQuery, type MigrationMark } from './manifest'

/**
 * The backup channel of a server on the embedded database: a second process cannot open PGlite while the server has
 * it, so `npm run backup` asks the server for the snapshot instead.
 *
 * A Unix socket at DATA_DIR/control.sock, mode 0600: only the user who owns the data (who could read the database
 * files anyway) can connect, and nothing is reachable over the network. One command exists, `snapshot`: the server
 * holds file deletions back, takes the snapshot between statements and streams it; the hold lasts while the
 * connection stays open (the client copies media meanwhile) and ends when it closes, however the client ends.
 *
 * Wire format: the client sends one JSON line `{"command":"snapshot"}`; the server answers one JSON line, either
 * `{"ok":true,"bytes":N,"migration":...}` followed by exactly N bytes, or `{"ok":false,"error":"..."}`.
 */

export const CONTROL_SOCKET_NAME = 'control.sock'
export const controlSocketPath = (dataDir: string) => path.join(dataDir, CONTROL_SOCKET_NAME)
const MAX_REQUEST_BYTES = 1024

export interface ControlSocketOptions {
  dataDir: string
  db: Database
  snapshot: () => Promise<PgliteSnapshot>
  deletionHold: DeletionHold
  log: { info: (message: string) => void; warn: (message: string, err?: unknown) => void }
}

export interface SnapshotHeader {
  ok: true
  bytes: number
  migration: MigrationMark | null
}

/** Starts listening; the returned function stops it and removes the socket file. */
export async function listenControlSocket(options: ControlSocketOptions): Promise<() => Promise<void>> {
  const file = controlSocketPath(options.dataDir)
  // A socket file left by a server that crashed; this process holds the database, so no live server owns it.
  await rm(file, { force: true })
  const connections = new Set<net.Socket>()
  const server = net.createServer((socket) => {
    connections.add(socket)
    socket.on('close', () => connections.delete(socket))
    // A client that goes away mid-answer is an ordinary end, never an error that could take the server down.
    socket.on('error', () => socket.destroy())
    serve(socket, options).catch((err: unknown) => {
      options.log.warn('backup channel: a request failed', err)
      socket.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(file, () => {
      server.off('error', reject)
      resolve()
    })
  })
  // The socket is created with the process umask (usually 0755: others cannot connect, connecting needs write
  // permission); 0600 makes it owner-only whatever the umask.
  await chmod(file, 0o600)
  server.on('error', (err) => options.log.warn('backup channel error', err))
  return async () => {
    for (const socket of connections) socket.destroy()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await rm(file, { force: true })
  }
}

async function serve(socket: net.Socket, options: ControlSocketOptions): Promise<void> {
  // The request line is read with a listener of its own, not the async iterator, which would end the socket
  // when it returns.
  const line = await new Promise<string>((resolve, reject) => {
    let text = ''
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8')
      const end = text.indexOf('\n')
      if (end >= 0 || text.length > MAX_REQUEST_BYTES) {
        socket.off('data', onData)
        // Anything more the client sends is ignored, but read, so its closing is seen and the hold ends.
        socket.resume()
        if (end >= 0) resolve(text.slice(0, end))
        else reject(new Error('request line too long'))
      }
    }
    socket.on('data', onData)
    socket.once('close', () => reject(new Error('no complete request line')))
  })
  let command: unknown
  try {
    command = (JSON.parse(line) as { command?: unknown }).command
  } catch {
    command = undefined
  }
  if (command !== 'snapshot') {
    socket.end(`${JSON.stringify({ ok: false, error: 'Unknown command (this server knows "snapshot")' })}\n`)
    return
  }
  const release = options.deletionHold.hold()
  socket.once('close', () => void release())
  if (socket.destroyed) {
    await release()
    return
  }
  const started = performance.now()
  let snapshot: PgliteSnapshot
  let migration: MigrationMark | null
  try {
    migration = await currentMigration(drizzleQuery(options.db))
    snapshot = await options.snapshot()
  } catch (err) {
    socket.end(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`)
    return
  }
  options.log.info(
    `backup channel: database snapshot taken (${snapshot.data.size} bytes in ${Math.round(performance.now() - started)} ms, ` +
      `queries waited ${snapshot.pausedMs} ms); file deletions wait until the backup ends`,
  )
  const header: SnapshotHeader = { ok: true, bytes: snapshot.data.size, migration }
  socket.write(`${JSON.stringify(header)}\n`)
  for await (const chunk of snapshot.data.stream() as unknown as AsyncIterable<Uint8Array>) {
    if (socket.destroyed) return
    if (!socket.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done)
          socket.off('close', done)
          resolve()
        }
        socket.once('drain', done)
        socket.once('close', done)
      })
    }
  }
}

/** What a running server answered: the snapshot's bytes to read, and `finish` to end the hold. */
export interface RemoteSnapshot {
  bytes: number
  migration: MigrationMark | null
  body: AsyncIterable<Buffer>
  /** Closes the connection, which ends the server's hold on deletions. */
  finish: () => void
}

/**
 * Asks the server on `dataDir` for a snapshot. Resolves undefined when no server listens there (no socket, or one
 * left by a crash), so the caller opens the database itself.
 */
export async function requestSnapshot(dataDir: string): Promise<RemoteSnapshot | undefined> {
  const socket = net.createConnection(controlSocketPath(dataDir))
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve)
      socket.once('error', reject)
    })
  } catch (err) {
    socket.destroy()
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return undefined
    if (code === 'EACCES') {
      throw new Error(
        `Permission denied on ${controlSocketPath(dataDir)}: run the backup as the user the server runs as.`,
      )
    }
    throw err
  }
  socket.write(`${JSON.stringify({ command: 'snapshot' })}\n`)
  // A manual iterator: `for await` with an early exit would destroy the socket and end the hold too soon.
  const iterator = (socket as AsyncIterable<Buffer>)[Symbol.asyncIterator]()
  let pending = Buffer.alloc(0)
  let headerLine: string | undefined
  while (headerLine === undefined) {
    const next = await iterator.next()
    if (next.done) throw new Error('The server closed the backup channel without answering')
    pending = Buffer.concat([pending, next.value])
    const end = pending.indexOf(10)
    if (end >= 0) {
      headerLine = pending.subarray(0, end).toString('utf8')
      pending = pending.subarray(end + 1)
    }
  }
  const answer = JSON.parse(headerLine) as SnapshotHeader | { ok: false; error: string }
  if (!answer.ok) {
    socket.destroy()
    throw new Error(`The server could not take the snapshot: ${answer.error}`)
  }
  const body = (async function* () {
    let left = answer.bytes
    if (pending.length > 0) {
      left -= pending.length
      yield pending
    }
    while (left > 0) {
      const next = await iterator.next()
      if (next.done) throw new Error('The server closed the backup channel before sending the whole snapshot')
      left -= next.value.length
      yield next.value
    }
  })()
  return { bytes: answer.bytes, migration: answer.migration, body, finish: () => socket.destroy() }
}
