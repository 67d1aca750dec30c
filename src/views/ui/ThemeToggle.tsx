import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { useTheme } from '../actors'
import { Icon } from './Icon'

/** Light/dark switch. Its name says what pressing it does, so it reads well to screen readers. */
export function ThemeToggle({ withLabel = false, className }: { withLabel?: boolean; className?: string }) {
  const themeActor = useTheme()
  const theme = useSelector(themeActor, (s) => s.context.theme)
  const next = theme === 'light' ? 'dark' : 'light'
  const label = `Switch to ${next} mode`
  return (
    <button
      type="button"
      className={cx(button({ variant: 'ghost', size: withLabel ? 'md' : 'icon' }), className)}
      aria-label={withLabel ? undefined : label}
      title={label}
      onClick={() => themeActor.send({ type: 'theme.toggle' })}
    >
      <Icon name={theme === 'light' ? 'moon' : 'sun'} />
      {withLabel ? <span className={css({ flex: 1, textAlign: 'left' })}>{label}</span> : null}
    </button>
  )
}
