import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from './Icon'

/**
 * The top of a view opened inside a dialog (a bookmark collection, a list's members): the way back to the overview,
 * then the view's title and a line under it.
 */
export function SubviewHeader({
  backLabel,
  onBack,
  backDisabled,
  title,
  subtitle,
}: {
  backLabel: string
  onBack: () => void
  backDisabled?: boolean
  title: ReactNode
  subtitle: ReactNode
}) {
  return (
    <>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
        <button type="button" className={button({ variant: 'ghost', size: 'sm' })} disabled={backDisabled} onClick={onBack}>
          <Icon name="back" size={16} />
          {backLabel}
        </button>
      </div>
      <div>
        <h3 className={css({ fontSize: 'md', fontWeight: 'bold' })}>{title}</h3>
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{subtitle}</p>
      </div>
    </>
  )
}
