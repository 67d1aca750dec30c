import { useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { selectUser } from '../../machines/session/session.selectors'
import type { ProfileSettingsMachine } from '../../machines/profile-settings/profile-settings.machine'
import { followRequestsMachine } from '../../machines/follow-requests/follow-requests.machine'
import { ScreenActor, useSession } from '../actors'
import { CheckboxField, FormError } from '../ui/Field'
import { Spinner } from '../ui/Spinner'
import { settingsActions, settingsForm } from './ProfileSection'
import { AUDIENCES, privacySettingsSchema, type PrivacySettingsValues } from '../../machines/profile-settings/profile-settings.rules'
import { SelectField } from './SettingsFields'
import { FollowRequestsSection } from './FollowRequestsSection'

/**
 * Privacy & Safety: the privacy form, then the member's follow requests (docs/product.md, "Private accounts and follow
 * requests"). The requests' actor lives with the section, so GET /follow-requests runs each time it opens.
 */
export function PrivacySection({ actor }: { actor: ActorRefFrom<ProfileSettingsMachine> }) {
  return (
    <>
      <PrivacyForm actor={actor} />
      <ScreenActor logic={followRequestsMachine}>{(requests) => <FollowRequestsSection actor={requests} />}</ScreenActor>
    </>
  )
}

/**
 * Show sensitive content, Direct Messages and Mentions (docs/product.md, "Privacy & safety settings"), filled from
 * the session's user and refilled with what the server saved.
 */
function PrivacyForm({ actor }: { actor: ActorRefFrom<ProfileSettingsMachine> }) {
  const settings = useSelector(useSession(), (s) => selectUser(s)?.contentSettings)
  const saving = useSelector(actor, (s) => s.hasTag('savingPrivacy'))
  const serverError = useSelector(actor, (s) => s.context.privacyError)

  const showSensitiveContent = settings?.showSensitiveContent ?? false
  const allowDMs = settings?.allowDMs ?? 'everyone'
  const allowMentions = settings?.allowMentions ?? 'everyone'
  const values = useMemo(
    () => ({ showSensitiveContent, allowDMs, allowMentions }),
    [showSensitiveContent, allowDMs, allowMentions],
  )
  const { register, handleSubmit } = useForm<PrivacySettingsValues>({
    resolver: zodResolver(privacySettingsSchema),
    values,
    resetOptions: { keepDirtyValues: true },
  })

  const onSubmit = handleSubmit((fields) => actor.send({ type: 'settings.privacy.save', ...fields }))

  return (
    <form onSubmit={onSubmit} noValidate className={settingsForm} aria-label="Privacy settings">
      <CheckboxField
        label={
          <>
            <span className={css({ fontWeight: 'semibold' })}>Show sensitive content</span>
            <span className={css({ display: 'block', color: 'fg.muted' })}>
              Show posts marked sensitive without the notice first
            </span>
          </>
        }
        {...register('showSensitiveContent')}
      />
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
        <SelectField label="Direct Messages" hint="Who can message you" options={AUDIENCES} {...register('allowDMs')} />
        <SelectField label="Mentions" hint="Who can mention you" options={AUDIENCES} {...register('allowMentions')} />
      </div>
      <FormError message={serverError} />
      <div className={settingsActions}>
        <button type="submit" className={button()} disabled={saving} aria-busy={saving}>
          {saving ? <Spinner size={16} /> : null}
          Save Privacy Settings
        </button>
      </div>
    </form>
  )
}
