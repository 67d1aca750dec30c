import { useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { selectUser } from '../../machines/session/session.selectors'
import type { ProfileSettingsMachine } from '../../machines/profile-settings/profile-settings.machine'
import { useSession } from '../actors'
import { CheckboxField, FormError, TextField } from '../ui/Field'
import { Icon } from '../ui/Icon'
import { Spinner } from '../ui/Spinner'
import { BIO_MAX, profileSettingsSchema, type ProfileSettingsValues } from '../../machines/profile-settings/profile-settings.rules'
import { TextAreaField } from './SettingsFields'

export const settingsForm = css({ display: 'flex', flexDirection: 'column', gap: '5', maxW: '560px', pt: '3' })
export const settingsActions = css({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  justifyContent: 'flex-end',
  gap: '2',
  pt: '4',
  borderTopWidth: '1px',
  borderColor: 'border',
})

/**
 * Display Name, Bio, Private account (docs/product.md, "Profile settings"). The fields fill from the session's user
 * (what GET /auth/me answered) and refill with what the server saved.
 */
export function ProfileSection({
  actor,
  onChangePassword,
}: {
  actor: ActorRefFrom<ProfileSettingsMachine>
  onChangePassword: () => void
}) {
  const user = useSelector(useSession(), selectUser)
  const saving = useSelector(actor, (s) => s.hasTag('savingProfile'))
  const serverError = useSelector(actor, (s) => s.context.profileError)

  const displayName = user?.displayName ?? ''
  const bio = user?.bio ?? ''
  const privateAccount = user?.privateAccount ?? false
  // `values` refills the form whenever the saved member changes; edits in progress are kept.
  const values = useMemo(() => ({ displayName, bio, privateAccount }), [displayName, bio, privateAccount])
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<ProfileSettingsValues>({
    resolver: zodResolver(profileSettingsSchema),
    values,
    resetOptions: { keepDirtyValues: true },
  })
  const bioLength = watch('bio')?.length ?? 0

  const onSubmit = handleSubmit((fields) => actor.send({ type: 'settings.profile.save', ...fields }))

  return (
    <form onSubmit={onSubmit} noValidate className={settingsForm} aria-label="Profile settings">
      <TextField
        label="Display Name"
        autoComplete="nickname"
        error={errors.displayName?.message}
        hint="Shown on your profile and your posts."
        {...register('displayName')}
      />
      <TextAreaField
        label="Bio"
        rows={4}
        placeholder="Tell people a little about yourself"
        count={{ value: bioLength, max: BIO_MAX }}
        error={errors.bio?.message}
        {...register('bio')}
      />
      <CheckboxField
        label={
          <>
            <span className={css({ fontWeight: 'semibold' })}>Private account</span>
            <span className={css({ display: 'block', color: 'fg.muted' })}>Requires approval for new followers</span>
          </>
        }
        {...register('privateAccount')}
      />
      <FormError message={serverError} />
      <div className={settingsActions}>
        <button type="button" className={button({ variant: 'outline' })} onClick={onChangePassword}>
          <Icon name="key" />
          Change Password
        </button>
        <button type="submit" className={button()} disabled={saving} aria-busy={saving}>
          {saving ? <Spinner size={16} /> : null}
          Save Changes
        </button>
      </div>
    </form>
  )
}
