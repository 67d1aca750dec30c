import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { canBeReposted, isHiddenAsSensitive, isOwnPost } from '../../src/machines/posts/posts.rules'
import {
  selectCanBeReposted,
  selectIsHiddenAsSensitive,
  selectIsOwnPost,
} from '../../src/machines/posts/posts.selectors'
import { ann, makePost, robinSummary } from './support/post-fixtures'

// What a post card shows and offers (docs/product.md, "Post card"): a sensitive post stays behind its notice unless revealed or the
// member's setting shows it; the author's menu has Edit and Delete, everyone else's Report and Block User; only public
// posts can be reposted. Checked as plain rules, then through the selectors the card reads and the cache's guards.

describe('isHiddenAsSensitive', () => {
  const sensitive = makePost('s1', { sensitive: true, sensitiveReason: 'Spoilers' })
  const plain = makePost('n1')

  it('hides a sensitive post until it is revealed or the setting is on', () => {
    expect(isHiddenAsSensitive(sensitive, { revealed: false, showsSensitive: false })).toBe(true)
    expect(isHiddenAsSensitive(sensitive, { revealed: true, showsSensitive: false })).toBe(false)
    expect(isHiddenAsSensitive(sensitive, { revealed: false, showsSensitive: true })).toBe(false)
    expect(isHiddenAsSensitive(sensitive, { revealed: true, showsSensitive: true })).toBe(false)
  })

  it('never hides a post that is not marked sensitive', () => {
    expect(isHiddenAsSensitive(plain, { revealed: false, showsSensitive: false })).toBe(false)
  })
})

describe('isOwnPost', () => {
  const annsPost = makePost('a1', { author: ann })

  it('is the author only: the author sees Edit and Delete, others Report and Block User', () => {
    expect(isOwnPost(annsPost, ann.id)).toBe(true)
    expect(isOwnPost(annsPost, robinSummary.id)).toBe(false)
  })

  it('is nobody while no member is known', () => {
    expect(isOwnPost(annsPost, null)).toBe(false)
  })
})

describe('canBeReposted', () => {
  it('lets public posts be reposted, and any repost be undone', () => {
    expect(canBeReposted(makePost('p', { visibility: 'public' }))).toBe(true)
    expect(canBeReposted(makePost('f', { visibility: 'followers' }))).toBe(false)
    expect(canBeReposted(makePost('m', { visibility: 'mentioned' }))).toBe(false)
    expect(canBeReposted(makePost('f2', { visibility: 'followers', reposted: true }))).toBe(true)
  })
})

describe('what the card reads from the post cache', () => {
  const sensitive = makePost('s1', { sensitive: true, author: robinSummary, visibility: 'followers' })
  const plain = makePost('n1', { author: ann })

  function start() {
    const actor = createActor(postsMachine).start()
    actor.send({ type: 'posts.received', posts: [sensitive, plain] })
    return actor
  }

  it('shows the notice until Show anyway, or at once with the setting on', () => {
    const actor = start()
    expect(selectIsHiddenAsSensitive('s1', false)(actor.getSnapshot())).toBe(true)
    expect(selectIsHiddenAsSensitive('s1', true)(actor.getSnapshot())).toBe(false)
    expect(selectIsHiddenAsSensitive('n1', false)(actor.getSnapshot())).toBe(false)
    actor.send({ type: 'post.reveal', id: 's1' })
    expect(selectIsHiddenAsSensitive('s1', false)(actor.getSnapshot())).toBe(false)
    actor.stop()
  })

  it('reveals only a post the rule hides (the cache ignores a reveal of a plain or unknown post)', () => {
    const actor = start()
    expect(actor.getSnapshot().can({ type: 'post.reveal', id: 's1' })).toBe(true)
    expect(actor.getSnapshot().can({ type: 'post.reveal', id: 'n1' })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'post.reveal', id: 'missing' })).toBe(false)
    actor.send({ type: 'post.reveal', id: 's1' })
    expect(actor.getSnapshot().can({ type: 'post.reveal', id: 's1' })).toBe(false)
    actor.stop()
  })

  it('tells the author apart, and nothing for a post not in the cache', () => {
    const actor = start()
    expect(selectIsOwnPost('s1', robinSummary.id)(actor.getSnapshot())).toBe(true)
    expect(selectIsOwnPost('n1', robinSummary.id)(actor.getSnapshot())).toBe(false)
    expect(selectIsOwnPost('missing', robinSummary.id)(actor.getSnapshot())).toBe(false)
    actor.stop()
  })

  it('enables repost for public posts only, and the cache refuses the others', () => {
    const actor = start()
    expect(selectCanBeReposted('n1')(actor.getSnapshot())).toBe(true)
    expect(selectCanBeReposted('s1')(actor.getSnapshot())).toBe(false)
    expect(actor.getSnapshot().can({ type: 'post.repost', id: 's1' })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'post.repost', id: 'n1' })).toBe(true)
    actor.stop()
  })
})
