import { useRef, type ChangeEvent } from 'react'
import { css, cx } from 'styled-system/css'
import type { UserProfile } from '../../api/users.calls'
import { Avatar } from '../ui/Avatar'
import { Spinner } from '../ui/Spinner'
import { ProfileIcon } from './icons'
import { shownName } from '../../machines/lib/shown-name'

// The banner (or a gradient) and the avatar (or the initial). On one's own profile each has a camera button that picks
// an image; the view only hands the file to the profile actor, which uploads it and says how that went.

/** What the server takes (openapi.yaml ImageUploadRequest); it checks the bytes itself, this only filters the picker. */
const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif'

const cameraButton = css({
  display: 'grid',
  placeItems: 'center',
  w: '10',
  h: '10',
  borderRadius: 'full',
  bg: 'rgba(13, 18, 24, 0.6)',
  color: 'white',
  backdropFilter: 'blur(6px)',
  cursor: 'pointer',
  transition: 'background-color 120ms',
  _hover: { bg: 'rgba(13, 18, 24, 0.78)' },
  _focusVisible: { outline: '2px solid', outlineColor: 'white', outlineOffset: '2px' },
  _disabled: { cursor: 'not-allowed', opacity: 0.7 },
})

const busyVeil = css({
  position: 'absolute',
  inset: 0,
  display: 'grid',
  placeItems: 'center',
  bg: 'rgba(13, 18, 24, 0.45)',
  color: 'white',
})

function ImagePicker({
  label,
  name,
  busy,
  disabled,
  onPick,
  className,
}: {
  label: string
  name: 'avatar' | 'banner'
  busy: boolean
  disabled: boolean
  onPick: (file: File) => void
  className?: string
}) {
  const input = useRef<HTMLInputElement>(null)
  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    // Cleared so that picking the same file again (after a failed upload) still counts as a change.
    event.target.value = ''
    if (file) onPick(file)
  }
  return (
    <>
      <button
        type="button"
        className={cx(cameraButton, className)}
        aria-label={label}
        title={label}
        aria-busy={busy}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        {busy ? <Spinner size={18} /> : <ProfileIcon name="camera" size={20} />}
      </button>
      <input ref={input} type="file" name={name} accept={ACCEPT} hidden onChange={picked} />
    </>
  )
}

export interface ProfileImagesProps {
  user: UserProfile
  owner: boolean
  uploading: 'avatar' | 'banner' | null
  onAvatar: (file: File) => void
  onBanner: (file: File) => void
}

export function ProfileBanner({ user, owner, uploading, onBanner }: Omit<ProfileImagesProps, 'onAvatar'>) {
  return (
    <div
      className={css({
        position: 'relative',
        aspectRatio: '3 / 1',
        maxH: '220px',
        w: 'full',
        overflow: 'hidden',
        bgImage: 'linear-gradient(125deg, token(colors.brand.300) 0%, token(colors.brand.500) 48%, token(colors.brand.800) 100%)',
        _dark: {
          bgImage: 'linear-gradient(125deg, token(colors.brand.700) 0%, token(colors.brand.900) 55%, token(colors.ink.950) 100%)',
        },
      })}
    >
      {user.banner ? (
        <img src={user.banner} alt="" className={css({ w: 'full', h: 'full', objectFit: 'cover' })} />
      ) : null}
      {uploading === 'banner' ? (
        <div className={busyVeil}>
          <Spinner size={28} label="Uploading banner" />
        </div>
      ) : null}
      {owner ? (
        <ImagePicker
          label="Change banner"
          name="banner"
          busy={uploading === 'banner'}
          disabled={uploading !== null}
          onPick={onBanner}
          className={css({ position: 'absolute', top: '3', right: '3' })}
        />
      ) : null}
    </div>
  )
}

export function ProfileAvatar({ user, owner, uploading, onAvatar }: Omit<ProfileImagesProps, 'onBanner'>) {
  return (
    <div
      className={css({
        position: 'relative',
        w: 'fit-content',
        mt: '-12',
        borderRadius: 'full',
        borderWidth: '4px',
        borderColor: 'bg.surface',
        bg: 'bg.surface',
      })}
    >
      <Avatar src={user.avatar} name={shownName(user)} size={96} />
      {uploading === 'avatar' ? (
        <div className={cx(busyVeil, css({ borderRadius: 'full' }))}>
          <Spinner size={24} label="Uploading profile photo" />
        </div>
      ) : null}
      {owner ? (
        <ImagePicker
          label="Change profile photo"
          name="avatar"
          busy={uploading === 'avatar'}
          disabled={uploading !== null}
          onPick={onAvatar}
          className={css({ position: 'absolute', right: '-1', bottom: '-1', w: '9', h: '9', borderWidth: '2px', borderColor: 'bg.surface' })}
        />
      ) : null}
    </div>
  )
}
