import { Forbidden, Invalid, Network, NotFound, Server, Timeout, Unauthorized } from '../../../src/api/errors'
import type { AuthResponse, CurrentUser } from '../../../src/api/types'
import type { StoredSession } from '../../../src/machines/session/session.schema'

export const robin: CurrentUser = {
  id: '0190a6b2-0000-7000-8000-000000000001',
  username: 'robin',
  email: 'robin@example.org',
  displayName: 'Robin Wren',
  avatar: null,
  banner: null,
  bio: '',
  verified: false,
  privateAccount: false,
  isAdmin: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  contentSettings: { showSensitiveContent: false, allowDMs: 'everyone', allowMentions: 'everyone' },
  publicKey: null,
  keysRequested: false,
  twoFactorEnabled: false,
  hasRecoveryKey: false,
}

/** What /auth/me answers after a reload: the same member, with a fresh display name. */
export const robinFromServer: CurrentUser = { ...robin, displayName: 'Robin (checked)' }

export const robinAuth: AuthResponse = { user: robin, token: 'token-from-login', privateKey: 'wrapped-key' }

export const storedRobin: StoredSession = {
  user: { id: robin.id, username: 'robin', displayName: 'Robin Wren', avatar: null, isAdmin: false },
  token: 'stored-token',
  privateKey: 'stored-key',
  isAuthenticated: true,
}

export const noSession: StoredSession = { user: null, token: null, privateKey: null, isAuthenticated: false }

/** The me-check failures, each with the session outcome it requires (docs/product.md, "Session check"). */
export const checkAuthFailures = [
  { label: '401', error: new Unauthorized({ message: 'Invalid or expired token', fromServer: true }), keeps: false },
  { label: '403', error: new Forbidden({ message: 'Account suspended', fromServer: true }), keeps: false },
  { label: '500', error: new Server({ status: 500, message: 'Internal error', fromServer: true }), keeps: true },
  { label: '503', error: new Server({ status: 503, message: 'Database unavailable', fromServer: true }), keeps: true },
  { label: 'timeout', error: new Timeout({ message: 'The request timed out. Please try again.' }), keeps: true },
  { label: 'network', error: new Network({ message: 'Unable to reach the server.' }), keeps: true },
  { label: 'other (404)', error: new NotFound({ message: 'Not found', fromServer: true }), keeps: true },
  {
    label: 'other (429)',
    error: new Invalid({ status: 429, message: 'Too many requests', fromServer: true, details: [] }),
    keeps: true,
  },
] as const
