import { createActor } from 'xstate'
import { sessionMachine } from '../../../src/machines/session/session.machine'
import { Calls } from './controlled-actors'
import { robin, storedRobin } from './fixtures'
import { perform } from './model'

/** A signed-in session (its me-check already answered), for a machine that tells it things (`session.user.updated`). */
export async function signedInSession() {
  const calls = new Calls()
  const session = createActor(sessionMachine.provide({ actors: { checkAuth: calls.actor('checkAuth') } }), {
    input: { stored: storedRobin },
  }).start()
  await perform(session, calls, { type: 'xstate.done.actor.checkAuth', output: robin })
  return session
}
