import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import type { Toast, ToastsRef } from '../../machines/toasts/toasts.machine'
import { Icon } from './Icon'
import { Spinner } from './Spinner'

// The toasts themselves, inside the Toaster's live region (./Toaster.tsx): a chunk of their own, which the first toast
// or the end of the first screen brings.

const item = css({
  pointerEvents: 'auto',
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  minW: { md: '280px' },
  maxW: { md: '420px' },
  pl: '4',
  pr: '2',
  py: '2.5',
  borderRadius: 'xl',
  bg: 'fg.default',
  color: 'bg.surface',
  boxShadow: 'popover',
  fontSize: 'sm',
  fontWeight: 'medium',
  animation: 'popIn 180ms ease-out',
})

const iconTone: Record<Toast['type'], string> = {
  success: css({ color: 'success' }),
  error: css({ color: 'danger' }),
  loading: css({ color: 'accent' }),
  blank: css({ color: 'accent' }),
  custom: css({ color: 'accent' }),
}

function ToastIcon({ type }: { type: Toast['type'] }) {
  if (type === 'loading') return <Spinner size={18} />
  return <Icon name={type === 'success' ? 'check' : type === 'error' ? 'alert' : 'info'} size={20} />
}

export function ToastList({ toastsActor }: { toastsActor: ToastsRef }) {
  const toasts = useSelector(toastsActor, (s) => s.context.toasts)
  return (
    <>
      {toasts.map((t) => (
        <div key={t.id} className={item} role={t.type === 'error' ? 'alert' : 'status'}>
          <span className={cx(iconTone[t.type], css({ display: 'inline-flex', flexShrink: 0 }))}>
            <ToastIcon type={t.type} />
          </span>
          <span className={css({ flex: 1, py: '1' })}>{t.message}</span>
          <button
            type="button"
            aria-label="Dismiss"
            onClick={() => toastsActor.send({ type: 'toast.dismiss', id: t.id })}
            className={css({
              display: 'inline-grid',
              placeItems: 'center',
              w: '8',
              h: '8',
              borderRadius: 'full',
              opacity: 0.7,
              cursor: 'pointer',
              _hover: { opacity: 1, bg: 'rgba(127,127,127,0.18)' },
              _focusVisible: { outline: '2px solid', outlineColor: 'accent' },
            })}
          >
            <Icon name="close" size={16} />
          </button>
        </div>
      ))}
    </>
  )
}
