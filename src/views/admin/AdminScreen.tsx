import type { FormEvent, ReactNode } from 'react'
import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button, card } from 'styled-system/recipes'
import { adminMachine, type AdminRef } from '../../machines/admin/admin.machine'
import type { AdminOperation } from '../../machines/admin/admin.rules'
import {
  selectBusy,
  selectConfirm,
  selectLogVersion,
  selectResult,
  selectRunning,
  selectUserId,
  selectUsername,
} from '../../machines/admin/admin.selectors'
import { auditLogMachine, type AuditLogRef } from '../../machines/admin/audit-log.machine'
import { instancePagesMachine, type InstancePagesRef } from '../../machines/admin/instance-pages.machine'
import { selectLogVersion as selectPagesLogVersion } from '../../machines/admin/instance-pages.selectors'
import { InstancePagesEditor } from './InstancePagesSection'
import { selectIsAdmin, selectUser } from '../../machines/session/session.selectors'
import { ScreenActor, useSession } from '../actors'
import { ConfirmDialog } from '../messages/ConfirmDialog'
import { fullDate, timeAgo } from '../post/format'
import { Avatar } from '../ui/Avatar'
import { TextField } from '../ui/Field'
import { Icon } from '../ui/Icon'
import { PageHeader } from '../ui/PageHeader'
import { Spinner } from '../ui/Spinner'
import { shownName } from '../../machines/lib/shown-name'

// The admin panel (/admin): Stats Management, User Management, Encryption Management, Instance pages, the
// current admin's box and the audit log. Every operation runs through the admin operations actor
// (src/machines/admin); the server checks the role on every call. Members see Access Denied.

const sectionTitle = css({ fontSize: 'md', fontWeight: 'bold', display: 'flex', alignItems: 'center', gap: '2' })
const sectionText = css({ fontSize: 'sm', color: 'fg.muted' })
const row = css({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: '2', '& > div': { flex: '1 1 14rem' } })

export function AdminScreen() {
  const session = useSession()
  const isAdmin = useSelector(session, selectIsAdmin)
  const user = useSelector(session, selectUser)

  if (!isAdmin) {
    return (
      <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: '3', px: '6', py: '24' })}>
        <span className={css({ display: 'grid', placeItems: 'center', w: '16', h: '16', borderRadius: '2xl', bg: 'danger.subtle', color: 'danger.text' })}>
          <Icon name="lock" size={30} />
        </span>
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Access Denied</h1>
        <p className={css({ color: 'fg.muted' })}>You need admin privileges to access this page.</p>
      </div>
    )
  }

  return (
    <>
      <PageHeader title="Admin Panel" subtitle="Manage users and system statistics" />
      <ScreenActor logic={adminMachine}>
        {(actor) => (
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', p: '4' })}>
            {user ? (
              <div className={card({ padding: 'md' })}>
                <p className={css({ fontSize: 'xs', fontWeight: 'semibold', textTransform: 'uppercase', letterSpacing: '0.06em', color: 'fg.muted', mb: '3' })}>
                  Signed in as administrator
                </p>
                <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
                  <Avatar src={user.avatar} name={shownName(user)} size={44} />
                  <div>
                    <p className={css({ fontWeight: 'bold' })}>{shownName(user)}</p>
                    <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>@{user.username}</p>
                  </div>
                </div>
              </div>
            ) : null}
            <StatsManagement actor={actor} />
            <UserManagement actor={actor} />
            <EncryptionManagement actor={actor} />
            <ScreenActor logic={instancePagesMachine}>
              {(pages) => (
                <>
                  <InstancePages pages={pages} />
                  <AuditLogSection actor={actor} pages={pages} />
                </>
              )}
            </ScreenActor>
            <OperationConfirm actor={actor} />
          </div>
        )}
      </ScreenActor>
    </>
  )
}

function Section({ title, icon, label, children }: { title: string; icon: Parameters<typeof Icon>[0]['name']; label: string; children: ReactNode }) {
  return (
    <section aria-label={label} className={cx(card({ padding: 'md' }), css({ display: 'flex', flexDirection: 'column', gap: '3' }))}>
      <h2 className={sectionTitle}>
        <Icon name={icon} size={18} />
        {title}
      </h2>
      {children}
    </section>
  )
}

/** The line a finished operation leaves under its section (what it did, or why it failed). */
function Result({ actor, operation }: { actor: AdminRef; operation: AdminOperation }) {
  const result = useSelector(actor, selectResult(operation))
  if (!result) return null
  return (
    <p role="status" className={css({ fontSize: 'sm', color: result.ok ? 'success.text' : 'danger.text' })}>
      {result.text}
    </p>
  )
}

function RunButton({
  actor,
  operation,
  children,
  variant = 'solid',
  type = 'button',
  onClick,
}: {
  actor: AdminRef
  operation: AdminOperation
  children: ReactNode
  variant?: 'solid' | 'outline' | 'danger'
  type?: 'button' | 'submit'
  onClick?: () => void
}) {
  const busy = useSelector(actor, selectBusy)
  const running = useSelector(actor, selectRunning)
  return (
    <button type={type} className={button({ variant })} disabled={busy} aria-busy={running === operation} onClick={onClick}>
      {running === operation ? <Spinner size={16} /> : null}
      {children}
    </button>
  )
}

function StatsManagement({ actor }: { actor: AdminRef }) {
  const userId = useSelector(actor, selectUserId)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    actor.send({ type: 'admin.recalculate' })
  }
  return (
    <Section title="Stats Management" icon="chart" label="Stats Management">
      <p className={sectionText}>
        Recount followers, following, posts, likes, reposts and replies from the rows they count. Reset 2FA turns off
        the two-factor sign-in of a member who lost their phone and their recovery codes (written to the audit log).
      </p>
      <div>
        <RunButton actor={actor} operation="fixAllStats" onClick={() => actor.send({ type: 'admin.fixAll' })}>
          Fix All Stats
        </RunButton>
      </div>
      <Result actor={actor} operation="fixAllStats" />
      <form onSubmit={submit} noValidate className={row}>
        <TextField
          label="User ID"
          value={userId}
          placeholder="The member's id"
          autoComplete="off"
          onChange={(event) => actor.send({ type: 'admin.userId.input', value: event.target.value })}
        />
        <RunButton actor={actor} operation="recalculate" variant="outline" type="submit">
          Recalculate
        </RunButton>
        <RunButton actor={actor} operation="resetTwoFactor" variant="danger" onClick={() => actor.send({ type: 'admin.resetTwoFactor' })}>
          Reset 2FA
        </RunButton>
      </form>
      <Result actor={actor} operation="recalculate" />
      <Result actor={actor} operation="resetTwoFactor" />
    </Section>
  )
}

function UserManagement({ actor }: { actor: AdminRef }) {
  const username = useSelector(actor, selectUsername)
  return (
    <Section title="User Management" icon="user" label="User Management">
      <p className={sectionText}>Promote a member to admin, or take the role away. The last admin always stays.</p>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          actor.send({ type: 'admin.promote' })
        }}
        noValidate
        className={row}
      >
        <TextField
          label="Username"
          value={username}
          placeholder="username"
          autoComplete="off"
          onChange={(event) => actor.send({ type: 'admin.username.input', value: event.target.value })}
        />
        <RunButton actor={actor} operation="promote" type="submit">
          Promote
        </RunButton>
        <RunButton actor={actor} operation="demote" variant="outline" onClick={() => actor.send({ type: 'admin.demote' })}>
          Demote
        </RunButton>
      </form>
      <Result actor={actor} operation="promote" />
      <Result actor={actor} operation="demote" />
    </Section>
  )
}

function EncryptionManagement({ actor }: { actor: AdminRef }) {
  return (
    <Section title="Encryption Management" icon="key" label="Encryption Management">
      <p className={sectionText}>
        Members without message keys make them in their browser at their next sign-in; until then they cannot receive
        messages.
      </p>
      <div>
        <RunButton actor={actor} operation="migrateKeys" variant="outline" onClick={() => actor.send({ type: 'admin.migrateKeys' })}>
          Migrate Keys
        </RunButton>
      </div>
      <Result actor={actor} operation="migrateKeys" />
    </Section>
  )
}

function OperationConfirm({ actor }: { actor: AdminRef }) {
  const confirm = useSelector(actor, selectConfirm)
  return (
    <ConfirmDialog
      open={confirm !== null}
      title="Are you sure?"
      description={confirm ?? ''}
      confirmLabel="Continue"
      onCancel={() => actor.send({ type: 'admin.cancel' })}
      onConfirm={() => actor.send({ type: 'admin.confirm' })}
    />
  )
}

function InstancePages({ pages }: { pages: InstancePagesRef }) {
  return (
    <Section title="Instance pages" icon="info" label="Instance pages">
      <p className={sectionText}>
        The Terms of Service and Privacy Policy at /terms and /privacy, which the registration form links to. Anyone
        can read them, signed in or not. Until you save your own, a default text is shown.
      </p>
      <InstancePagesEditor actor={pages} />
    </Section>
  )
}

function AuditLogSection({ actor, pages }: { actor: AdminRef; pages: InstancePagesRef }) {
  const version = useSelector(actor, selectLogVersion)
  const pagesVersion = useSelector(pages, selectPagesLogVersion)
  return (
    <Section title="Audit log" icon="list" label="Audit log">
      {/* Remounted after every finished operation and page save: the log reads itself again. */}
      <ScreenActor key={`${version}-${pagesVersion}`} logic={auditLogMachine}>
        {(log) => <AuditLog log={log} />}
      </ScreenActor>
    </Section>
  )
}

function AuditLog({ log }: { log: AuditLogRef }) {
  const snapshot = useSelector(log, (s) => s)
  if (snapshot.matches('loading')) return <Spinner label="Loading the audit log" />
  if (snapshot.matches('failed')) {
    return (
      <div role="alert" className={css({ display: 'flex', alignItems: 'center', gap: '3', fontSize: 'sm', color: 'fg.muted' })}>
        Could not load the audit log.
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => log.send({ type: 'audit.retry' })}>
          Try again
        </button>
      </div>
    )
  }
  const { entries, nextCursor } = snapshot.context
  if (entries.length === 0) return <p className={sectionText}>No admin actions yet.</p>
  return (
    <>
      <ol aria-label="Audit log entries" className={css({ display: 'flex', flexDirection: 'column' })}>
        {entries.map((entry) => (
          <li key={entry.id} className={css({ display: 'flex', flexWrap: 'wrap', gap: '1', columnGap: '2', py: '2', borderTopWidth: '1px', borderColor: 'border', fontSize: 'sm', _first: { borderTopWidth: 0 } })}>
            <span className={css({ fontWeight: 'semibold' })}>@{entry.actor?.username ?? 'deleted account'}</span>
            <span className={css({ flex: 1, minW: '12rem' })}>{entry.details}</span>
            <time dateTime={entry.createdAt} title={fullDate(entry.createdAt)} className={css({ color: 'fg.muted' })}>
              {timeAgo(entry.createdAt)}
            </time>
          </li>
        ))}
      </ol>
      {nextCursor ? (
        <button type="button" className={cx(button({ variant: 'ghost', size: 'sm' }), css({ alignSelf: 'center' }))} disabled={snapshot.hasTag('busy')} onClick={() => log.send({ type: 'audit.more' })}>
          Load more
        </button>
      ) : null}
    </>
  )
}
