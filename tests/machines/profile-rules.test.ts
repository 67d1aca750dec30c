import { describe, expect, it } from 'vitest'
import type { ProfileTab } from '../../src/api/users.calls'
import { belongsToTab, isOwnProfile } from '../../src/machines/profile/profile.rules'
import { makePost } from './support/post-fixtures'

// A profile page (docs/product.md, "Profiles"): the owner's own page (camera buttons, no Follow), and which tab shows a
// post the member just wrote.

describe('isOwnProfile', () => {
  it('is the viewer looking at their own page', () => {
    expect(isOwnProfile({ id: 'robin' }, 'robin')).toBe(true)
    expect(isOwnProfile({ id: 'ann' }, 'robin')).toBe(false)
  })

  it('is nobody while the profile has not loaded', () => {
    expect(isOwnProfile(null, 'robin')).toBe(false)
  })
})

describe('belongsToTab', () => {
  const post = makePost('p1')
  const reply = makePost('r1', { replyTo: 'p1' })
  const withPhoto = makePost('m1', {
    media: [{ id: 'i1', type: 'image', url: '/media/i1.webp', thumbnailUrl: null, alt: '', width: 800, height: 600 }],
  })

  it('puts a post on Posts, a reply on Replies, anything with media on Media, nothing new on Likes', () => {
    const tabs: ProfileTab[] = ['posts', 'replies', 'media', 'likes']
    expect(tabs.filter((tab) => belongsToTab(post, tab))).toEqual(['posts'])
    expect(belongsToTab(reply, 'replies')).toBe(true)
    expect(belongsToTab(reply, 'posts')).toBe(false)
    expect(belongsToTab(withPhoto, 'media')).toBe(true)
    expect(belongsToTab(withPhoto, 'likes')).toBe(false)
  })
})
