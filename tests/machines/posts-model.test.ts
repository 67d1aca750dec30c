import { describe, expect, it } from 'vitest'
import { withoutMuted, type PostEntry } from '../../src/machines/posts/posts.model'
import { ann, robinSummary } from './support/post-fixtures'

// What Home keeps on screen once a member is muted, as the server's next read would (docs/product.md, "Mutes").

const row = (id: string, repostedBy: PostEntry['repostedBy'] = null): PostEntry => ({ id, repostedBy })

describe('withoutMuted', () => {
  const entries = [row('a1'), row('a2', robinSummary), row('r1', ann), row('m1'), row('b1')]

  it("drops the muted member's own posts and their reposts; keeps their posts reposted by someone else", () => {
    // a1, a2 and b1 are Ann's; r1 is someone's post that Ann reposted; m1 is not Ann's.
    expect(withoutMuted(entries, ann.id, ['a1', 'a2', 'b1']).map((e) => e.id)).toEqual(['a2', 'm1'])
  })

  it('changes nothing when the member has nothing on screen', () => {
    expect(withoutMuted(entries, 'someone-else', [])).toEqual(entries)
  })
})
