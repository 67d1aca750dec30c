import { describe, expect, it } from 'vitest'
import { canMoveReport, REPORT_MOVES, REPORT_REASONS } from '../../src/api/contract/reports'
import { fixedOutcome, migratedOutcome, promoted, demoted, recalculatedOutcome } from '../../src/machines/admin/admin.rules'
import {
  DESCRIPTION_TOO_LONG,
  REASON_REQUIRED,
  REPORT_STATUS_LABEL,
  REPORT_TABS,
  reportFormProblem,
  targetText,
  targetTitle,
  truncateTarget,
} from '../../src/machines/reports/reports.rules'
import { notificationText } from '../../src/machines/notifications/notifications.rules'

// The rules a member sees in the report dialog, the Reports Management dialog and the admin panel.

describe('the report workflow', () => {
  it('allows exactly pending -> reviewed | dismissed and reviewed -> resolved | dismissed; resolved and dismissed are final', () => {
    const statuses = ['pending', 'reviewed', 'resolved', 'dismissed'] as const
    const allowed = statuses.flatMap((from) => statuses.filter((to) => canMoveReport(from, to)).map((to) => `${from}->${to}`))
    expect(allowed).toEqual(['pending->reviewed', 'pending->dismissed', 'reviewed->resolved', 'reviewed->dismissed'])
    expect(REPORT_MOVES.resolved).toEqual([])
    expect(REPORT_MOVES.dismissed).toEqual([])
  })

  it('labels statuses and tabs as the spec does', () => {
    expect(REPORT_STATUS_LABEL).toEqual({ pending: 'Pending Review', reviewed: 'Under Review', resolved: 'Resolved', dismissed: 'Dismissed' })
    expect(REPORT_TABS.map((t) => t.label)).toEqual(['Pending', 'Reviewed', 'Resolved'])
  })

  it('truncates target text at 200 characters (code points), with an ellipsis', () => {
    expect(truncateTarget('a'.repeat(200))).toBe('a'.repeat(200))
    expect(truncateTarget('a'.repeat(201))).toBe(`${'a'.repeat(200)}…`)
    expect(truncateTarget('😀'.repeat(201))).toBe(`${'😀'.repeat(200)}…`)
    const post = { type: 'post' as const, target: { username: 'ann', content: 'x'.repeat(250) } }
    expect(targetText(post)).toHaveLength(201)
    expect(targetText({ type: 'post', target: { content: null } })).toBe('This post has been deleted')
    expect(targetText({ type: 'user', target: { content: null } })).toBeNull()
    expect(targetTitle(post)).toBe('Post by @ann')
    expect(targetTitle({ type: 'message', target: { username: 'bo' } })).toBe('Message from @bo')
    expect(targetTitle({ type: 'user', target: { username: 'bo' } })).toBe('Member @bo')
  })

  it('asks a reason from the list and at most 1,000 characters of description', () => {
    expect(REPORT_REASONS).toEqual(['Spam', 'Harassment', 'Hate', 'Violence', 'Sexual content', 'Self-harm', 'Impersonation', 'Something else'])
    expect(reportFormProblem({ reason: '', description: '' })).toBe(REASON_REQUIRED)
    expect(reportFormProblem({ reason: 'Because', description: '' })).toBe(REASON_REQUIRED)
    expect(reportFormProblem({ reason: 'Spam', description: 'x'.repeat(1000) })).toBeNull()
    expect(reportFormProblem({ reason: 'Spam', description: 'x'.repeat(1001) })).toBe(DESCRIPTION_TOO_LONG)
    expect(DESCRIPTION_TOO_LONG).toBe('Description must be at most 1,000 characters')
  })

  it('tells the reporter how their report ended', () => {
    const from = { id: 'a', username: 'root', displayName: 'Root', avatar: null, verified: false }
    expect(notificationText({ type: 'report', othersCount: 0, from, report: { id: 'r', status: 'resolved' } })).toBe(
      'Root reviewed your report: Resolved',
    )
  })
})

describe('the admin panel', () => {
  it('says what each operation did', () => {
    expect(promoted('ann')).toBe('User ann promoted to admin!')
    expect(demoted('ann')).toBe('User ann demoted from admin!')
    expect(fixedOutcome({ recalculated: 1, fixed: 0 })).toEqual({
      toast: 'All user stats have been fixed!',
      detail: 'Recounted 1 member; fixed 0 wrong counters.',
    })
    expect(recalculatedOutcome({ username: 'ann', stats: { followers: 1, following: 2, posts: 1200 } }).detail).toBe(
      '@ann: 1 follower, 2 following, 1,200 posts.',
    )
    expect(migratedOutcome({ migrated: 3, pending: 5 })).toEqual({
      toast: 'Encryption keys migration completed!',
      detail: 'Marked 3 accounts to make keys at next sign-in; 5 still to do so.',
    })
  })
})
