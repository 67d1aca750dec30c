import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import type { Theme } from '../../machines/theme/theme.machine'
import { useTheme } from '../actors'
import { Icon } from '../ui/Icon'

const options: Array<{ theme: Theme; label: string; icon: 'sun' | 'moon' }> = [
  { theme: 'light', label: 'Light', icon: 'sun' },
  { theme: 'dark', label: 'Dark', icon: 'moon' },
]

const choice = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  p: '4',
  borderWidth: '1.5px',
  borderColor: 'border',
  borderRadius: 'xl',
  cursor: 'pointer',
  fontWeight: 'semibold',
  transition: 'border-color 120ms, background-color 120ms',
  _hover: { bg: 'bg.subtle' },
  '&:has(input:checked)': { borderColor: 'accent', bg: 'accent.subtle', color: 'accent.text' },
  '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
})

/** Light or Dark (docs/product.md, "Appearance"), applied to the whole page at once. */
export function AppearanceSection() {
  const themeActor = useTheme()
  const theme = useSelector(themeActor, (s) => s.context.theme)
  return (
    <fieldset>
      <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '3' })}>Theme</legend>
      <div className={css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '3' })}>
        {options.map((option) => (
          <label key={option.theme} className={choice}>
            <input
              type="radio"
              name="theme"
              value={option.theme}
              checked={theme === option.theme}
              onChange={() => themeActor.send({ type: 'theme.set', theme: option.theme })}
              className={css({ srOnly: true })}
            />
            <Icon name={option.icon} size={22} />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  )
}
