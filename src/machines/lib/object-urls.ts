import { fromCallback, type AnyActorRef, type EventObject } from 'xstate'

/**
 * Revokes the `blob:` URLs an actor still holds when it stops (XState runs no exit actions on stop): invoked at the
 * actor's root with the actor itself as input, it reads the actor's last context as it goes. A `blob:` URL keeps its
 * bytes (a decrypted photo) alive in the page until revoked.
 */
export function revokeOnStop<TOwner extends AnyActorRef>(urlsOf: (owner: TOwner) => ReadonlyArray<string | null>) {
  return fromCallback<EventObject, { owner: TOwner }>(({ input }) => () => {
    for (const url of urlsOf(input.owner)) if (url) URL.revokeObjectURL(url)
  })
}
