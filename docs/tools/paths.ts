// Prints every path the model-based machine tests walk for one machine, as numbered steps a tester can follow by hand:
//
//   npm run paths -- feed          the fewest paths that take every transition the home feed's tests take
//   npm run paths -- feed --all    every path its tests walk
//   npm run paths                  the machines it knows
//
// Each path is titled as its test is (`Path 12: <test title>`); each step reads `in <state>, <event> -> <next state>`,
// the event named as the test names it (with the test's label, e.g. which page the server answered). The paths come
// from the same models the tests walk (tests/machines/models, listed in tests/machines/models/index.ts), so they are
// exactly the tests' paths. States are the machine's state ids, as in its chart (docs/machines/<name>.md).
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import { models } from '../../tests/machines/models'
import { coveringPaths, describeEvent, walkPaths, type EventLabel, type MachineModel, type Path } from '../../tests/machines/support/walks'
import { stateValueText } from './machine-graph'

/** `feed.ready.loaded`; parallel regions in parentheses: `profile.loaded(list.ready, upload.idle)`. */
function stateText(machineId: string, snapshot: AnyMachineSnapshot): string {
  const value = stateValueText(snapshot.value)
  return value.startsWith('(') ? `${machineId}${value}` : `${machineId}.${value}`
}

/**
 * The event as the test names it, led by its type: `xstate.done.actor.loadPage(3 posts, more)` when the test's label
 * continues the type's last part (`loadPage(3 posts, more)`), else `composer.content.change — type("Hi")`.
 */
function eventText(event: AnyEventObject, label: EventLabel | undefined): string {
  const name = describeEvent(event, label)
  if (name === event.type || name.startsWith(`${event.type}(`)) return name
  const parts = event.type.split('.')
  for (let i = 1; i < parts.length; i++) {
    const tail = parts.slice(i).join('.')
    if (name === tail) return event.type
    if (name.startsWith(`${tail}(`)) return `${event.type}${name.slice(tail.length)}`
  }
  return `${event.type} — ${name}`
}

function steps(machineId: string, path: Path, label: EventLabel | undefined): string[] {
  const [first, ...rest] = path.steps
  // Graph paths start with the machine's own start (xstate.init); a tester starts there too.
  const started = first?.event.type === 'xstate.init'
  let before = started ? first.state : undefined
  const lines: string[] = []
  for (const step of started ? rest : path.steps) {
    const from = before ? `in ${stateText(machineId, before)}, ` : ''
    lines.push(`  ${lines.length + 1}. ${from}${eventText(step.event, label)} -> ${stateText(machineId, step.state)}`)
    before = step.state
  }
  if (lines.length === 0) lines.push(`  (no steps: it starts in ${stateText(machineId, path.state)})`)
  return lines
}

function print(model: MachineModel, all: boolean) {
  const out: string[] = []
  let number = 0
  for (const walk of model.walks) {
    const paths = all ? walkPaths(model, walk) : coveringPaths(model, walk)
    if (walk.name) out.push(`== ${model.name}: ${walk.name} (${paths.length} paths) ==`, '')
    for (const { title, path, label } of paths) {
      number += 1
      out.push(`Path ${number}: ${title}`, ...steps(model.machine.id, path, label), '')
    }
  }
  console.log(
    all
      ? `${model.name}: the ${number} paths its model tests walk (model in tests/machines/models)\n`
      : `${model.name}: ${number} paths that take every transition its model tests take (--all for every path they walk)\n`,
  )
  console.log(out.join('\n'))
}

const names = models.map((model) => model.name)
const all = process.argv.includes('--all')
const args = process.argv.slice(2).filter((arg) => arg !== '--all')
if (args.length === 0) {
  console.log(`Machines with model tests: ${names.join(', ')}\nPrint one's test paths with: npm run paths -- <machine>`)
} else {
  const model = models.find((m) => m.name === args[0])
  if (!model || args.length > 1) {
    console.error(`${model ? `One machine at a time, not '${args.join(' ')}'` : `Unknown machine '${args[0]}'`}.`)
    console.error(`Machines with model tests: ${names.join(', ')}\nUsage: npm run paths -- <machine> [--all]`)
    process.exit(1)
  }
  print(model, all)
}
