import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { users } from '../../server/db/schema'
import { fakeEnvelope, fakeKeys, keyedMember } from '../api/e2ee-support'
import { send as sendForm } from '../api/content-helpers'
import { api } from '../api/harness'

/**
 * A small world for the contract fuzz test: an owner (an admin, so the admin operations run past their guard) with
 * one of everything the contract names by id, a friend to talk to, a stranger, and a member the owner blocked.
 * Path and body ids are drawn from `pools`, so the owner names its own rows and the others name rows that are not
 * theirs.
 */

export type Role = 'owner' | 'stranger' | 'blocked'

export interface Person {
  id: string
  username: string
  password: string
}

/** Values by the resource they name: `post`, `user`, `list`, ... and `username`, `keyword`, `domain`, `password`. */
export type Pools = Record<string, string[]>

export interface World {
  people: Record<Role | 'friend', Person>
  pools: Pools
}

function expectStatus(res: LightMyRequestResponse, what: string, ...statuses: number[]) {
  if (!statuses.includes(res.statusCode)) throw new Error(`seeding ${what}: ${res.statusCode} ${res.body}`)
  return res.json() as Record<string, { id: string } & Record<string, unknown>>
}

export async function tinyPng(): Promise<Buffer> {
  return sharp({ create: { width: 4, height: 4, channels: 3, background: '#3a7' } })
    .png()
    .toBuffer()
}

export async function seedWorld(app: FastifyInstance): Promise<World> {
  const [owner, friend, stranger, blocked] = await Promise.all(
    ['owner', 'friend', 'stranger', 'blocked'].map((prefix) => keyedMember(app, { username: `${prefix}_fuzz` })),
  )
  if (!owner || !friend || !stranger || !blocked) throw new Error('seeding: a member is missing')
  await app.services.db.update(users).set({ isAdmin: true }).where(eq(users.id, owner.user.id))
  const call = (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
    api(app, method, `/api${url}`, { token, body })

  const png = await tinyPng()
  const post = expectStatus(
    await sendForm(app, 'POST', '/api/posts', owner.token, [
      { field: 'content', value: 'hello #fuzz @friend_fuzz' },
      { field: 'media', filename: 'dot.png', contentType: 'image/png', data: png },
      { field: 'alt', value: 'a green dot' },
    ]),
    'post',
    201,
  ).post
  if (!post) throw new Error('seeding: no post')
  const friendsPost = expectStatus(
    await sendForm(app, 'POST', '/api/posts', friend.token, [{ field: 'content', value: 'friend here' }]),
    'friend post',
    201,
  ).post
  const reply = expectStatus(
    await sendForm(app, 'POST', '/api/posts', owner.token, [
      { field: 'content', value: 'a reply' },
      { field: 'replyTo', value: String(friendsPost?.id) },
    ]),
    'reply',
    201,
  ).post
  // The friend follows, likes and answers the owner: notifications for the owner.
  expectStatus(await call(friend.token, 'POST', `/users/${owner.user.id}/follow`), 'follow', 200, 201)
  expectStatus(await call(owner.token, 'POST', `/users/${friend.user.id}/follow`), 'follow back', 200, 201)
  expectStatus(await call(friend.token, 'POST', `/posts/${post.id}/like`), 'like', 200)
  await sendForm(app, 'POST', '/api/posts', friend.token, [
    { field: 'content', value: 'nice' },
    { field: 'replyTo', value: post.id },
  ])
  const list = expectStatus(await call(owner.token, 'POST', '/lists', { name: 'close friends' }), 'list', 201).list
  expectStatus(
    await call(owner.token, 'POST', `/lists/${list?.id}/members`, { userId: friend.user.id }),
    'list member',
    200,
    201,
  )
  const collection = expectStatus(
    await call(owner.token, 'POST', '/bookmarks/collections', { name: 'keep' }),
    'collection',
    201,
  ).collection
  const bookmark = expectStatus(
    await call(owner.token, 'POST', '/bookmarks', { postId: friendsPost?.id }),
    'bookmark',
    200,
    201,
  ).bookmark
  expectStatus(
    await call(owner.token, 'POST', `/bookmarks/collections/${collection?.id}/posts`, { postId: friendsPost?.id }),
    'collection post',
    200,
    201,
  )
  const conversation = expectStatus(
    await call(owner.token, 'POST', '/messages/conversations', { recipientId: friend.user.id }),
    'conversation',
    200,
    201,
  ).conversation
  const message = expectStatus(
    await call(friend.token, 'POST', `/messages/conversations/${conversation?.id}/messages`, {
      content: fakeEnvelope(),
    }),
    'message',
    201,
  ).message
  const ownMessage = expectStatus(
    await call(owner.token, 'POST', `/messages/conversations/${conversation?.id}/messages`, {
      content: fakeEnvelope(),
    }),
    'own message',
    201,
  ).message
  const report = expectStatus(
    await call(owner.token, 'POST', '/reports/post', { postId: friendsPost?.id, reason: 'Spam' }),
    'report',
    201,
  ).report
  expectStatus(await call(owner.token, 'POST', '/blocks/keyword', { keyword: 'spoilers' }), 'keyword', 201)
  expectStatus(await call(owner.token, 'POST', '/mutes/domain', { domain: 'spam.example' }), 'domain', 201)
  expectStatus(await call(owner.token, 'POST', `/blocks/user/${blocked.user.id}`), 'block', 201)
  const notifications = expectStatus(await call(owner.token, 'GET', '/notifications'), 'notifications', 200)
    .notifications as unknown as Array<{ id: string }>
  if (!notifications.length) throw new Error('seeding: the owner has no notification')

  const person = (m: typeof owner): Person => ({ id: m.user.id, username: m.user.username, password: m.password })
  const ids = (...values: Array<{ id: string } | undefined>) => values.flatMap((v) => (v ? [v.id] : []))
  const people = { owner: person(owner), friend: person(friend), stranger: person(stranger), blocked: person(blocked) }
  const everyone = Object.values(people)
  return {
    people,
    pools: {
      post: ids(post, reply, friendsPost),
      media: ((post.media as Array<{ id: string }> | undefined) ?? []).map((m) => m.id),
      user: everyone.map((p) => p.id),
      username: everyone.map((p) => p.username),
      password: everyone.map((p) => p.password),
      list: ids(list),
      collection: ids(collection),
      bookmark: ids(bookmark),
      conversation: ids(conversation),
      message: ids(ownMessage, message),
      report: ids(report),
      notification: notifications.map((n) => n.id),
      keyword: ['spoilers', 'SPOILERS'],
      // Key- and envelope-shaped values: their patterns alone do not make a value the server accepts.
      publickey: [fakeKeys().publicKey],
      privatekey: [fakeKeys().privateKey],
      content: [fakeEnvelope(), 'hello #fuzz @friend_fuzz'],
      domain: ['spam.example'],
    },
  }
}
