import { Effect } from 'effect'
import { mutation } from './calls'
import { api, type ApiClient } from './client'
import type { ApiError } from './errors'
import type { components } from './contract/schema'

// Polls on posts (openapi.yaml `votePoll`), in the style of posts.calls.ts: the vote is a write, never retried.

export type Poll = components['schemas']['Poll']

export function makePollCalls(client: ApiClient) {
  return {
    /** One vote: one option id, or several on a multiple-choice poll. Answers the poll as the voter now sees it. */
    vote: (postId: string, choices: ReadonlyArray<string>): Effect.Effect<Poll, ApiError> =>
      mutation<components['schemas']['PollResponse']>((signal) =>
        client.POST('/posts/{id}/poll/votes', { params: { path: { id: postId } }, body: { choices: [...choices] }, signal }),
      ).pipe(Effect.map((body) => body.poll)),
  }
}

export type PollCalls = ReturnType<typeof makePollCalls>

export const pollCalls: PollCalls = makePollCalls(api)
