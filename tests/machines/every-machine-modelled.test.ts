import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { AnyStateMachine } from 'xstate'
import { models } from './models'
import { childMachines } from './support/model'

// A machine without a model is a machine nobody walks: every state machine src/machines exports must be the machine
// of a model in tests/machines/models/index.ts (matched by machine id, since models may `provide` stand-in actors),
// which is also what `npm run paths` and the charts' index list. So must every machine such a machine can spawn or
// invoke: a child machine's inside is walked by its own model, the parent's walks only have to start it (the rule in
// support/model.ts, `Coverage`).

const root = fileURLToPath(new URL('../../src/machines', import.meta.url))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

const isMachine = (value: unknown): value is AnyStateMachine =>
  typeof value === 'object' && value !== null && 'root' in value && 'id' in value && 'provide' in value

describe('every machine has a model', () => {
  const files = sourceFiles(root).filter((file) => readFileSync(file, 'utf8').includes('createMachine('))

  it('finds the machines', () => {
    expect(files.length).toBeGreaterThan(40)
  })

  // A file that only exports a factory (filter-lists) has its machines checked where they are made and exported.
  it.each(files.map((file) => [relative(root, file), file]))('%s', async (_name, file) => {
    const exported = Object.values(await import(file)).filter(isMachine)
    const modelled = new Set(models.map((model) => model.machine.id))
    for (const machine of exported) {
      expect(modelled, `no model walks machine '${machine.id}'`).toContain(machine.id)
      for (const [src, child] of childMachines(machine)) {
        expect(modelled, `no model walks '${child.id}', which '${machine.id}' starts as '${src}'`).toContain(child.id)
      }
    }
  })
})
