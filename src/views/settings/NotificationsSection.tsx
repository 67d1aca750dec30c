import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import {
  notificationPreferencesMachine,
  type NotificationPreferencesRef,
} from '../../machines/notification-preferences/notification-preferences.machine'
import { PREFERENCE_TOGGLES, samePreferences } from '../../machines/notifications/notifications.rules'
import { ScreenActor } from '../actors'
import { FormError } from '../ui/Field'
import { Spinner } from '../ui/Spinner'
import { settingsActions, settingsForm } from './ProfileSection'

/**
 * Settings -> Notifications (docs/product.md, "Notifications"): which kinds of notification the member receives, one
 * switch each, saved together. The actor lives with the section, so the preferences are read each time it opens.
 */
export function NotificationsSection() {
  return <ScreenActor logic={notificationPreferencesMachine}>{(actor) => <PreferencesForm actor={actor} />}</ScreenActor>
}

const switchInput = css({
  appearance: 'none',
  position: 'relative',
  flexShrink: 0,
  w: '11',
  h: '6',
  borderRadius: 'full',
  bg: 'border.strong',
  cursor: 'pointer',
  transition: 'background-color 150ms',
  _before: {
    content: '""',
    position: 'absolute',
    top: '0.5',
    left: '0.5',
    w: '5',
    h: '5',
    borderRadius: 'full',
    bg: 'white',
    boxShadow: '0 1px 2px rgba(0,0,0,0.25)',
    transition: 'transform 150ms',
  },
  _checked: { bg: 'accent', _before: { transform: 'translateX(20px)' } },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
  _disabled: { opacity: 0.55, cursor: 'not-allowed' },
})

function PreferencesForm({ actor }: { actor: NotificationPreferencesRef }) {
  const loading = useSelector(actor, (s) => s.hasTag('loading'))
  const failed = useSelector(actor, (s) => s.matches('failed'))
  const saving = useSelector(actor, (s) => s.hasTag('saving'))
  const draft = useSelector(actor, (s) => s.context.draft)
  const dirty = useSelector(actor, (s) => !samePreferences(s.context.saved, s.context.draft))
  const error = useSelector(actor, (s) => s.context.error)

  if (loading) {
    return (
      <div className={css({ py: '8', color: 'accent' })}>
        <Spinner size={24} label="Loading notification settings" />
      </div>
    )
  }
  if (failed || !draft) {
    return (
      <div role="alert" className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '6', color: 'fg.muted' })}>
        <p>Couldn&apos;t load your notification settings.</p>
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'preferences.retry' })}>
          Try again
        </button>
      </div>
    )
  }
  return (
    <form
      noValidate
      aria-label="Notification settings"
      className={settingsForm}
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: 'preferences.save' })
      }}
    >
      <ul className={css({ display: 'flex', flexDirection: 'column', borderWidth: '1px', borderColor: 'border', borderRadius: 'xl', bg: 'bg.surface' })}>
        {PREFERENCE_TOGGLES.map(({ key, label }) => (
          <li key={key} className={css({ '&:not(:last-child)': { borderBottomWidth: '1px', borderColor: 'border' } })}>
            <label className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '4', px: '4', py: '3.5', cursor: 'pointer' })}>
              <span className={css({ fontWeight: 'medium' })}>{label}</span>
              <input
                type="checkbox"
                role="switch"
                className={switchInput}
                checked={draft[key]}
                disabled={saving}
                onChange={(event) => actor.send({ type: 'preferences.toggle', key, on: event.target.checked })}
              />
            </label>
          </li>
        ))}
      </ul>
      <FormError message={error} />
      <div className={settingsActions}>
        <button type="submit" className={button()} disabled={saving || !dirty} aria-busy={saving}>
          {saving ? <Spinner size={16} /> : null}
          Save Notification Settings
        </button>
      </div>
    </form>
  )
}
