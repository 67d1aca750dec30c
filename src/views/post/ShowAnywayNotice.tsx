import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'

const notice = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  mt: '1.5',
  px: '3.5',
  py: '3',
  borderRadius: 'xl',
  bg: 'bg.subtle',
  borderWidth: '1px',
  borderColor: 'border',
})

/** The box that stands in for a post's text and media (muted, sensitive): an icon, why, and 'Show anyway'. */
export function ShowAnywayNotice({ icon, children, onShow }: { icon: ReactNode; children: ReactNode; onShow: () => void }) {
  return (
    <div className={notice}>
      <span className={css({ color: 'fg.muted', display: 'inline-flex', flexShrink: 0 })}>{icon}</span>
      {children}
      <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={onShow}>
        Show anyway
      </button>
    </div>
  )
}
