import { useSearchParams } from 'wouter'
import { css } from 'styled-system/css'
import { button, card } from 'styled-system/recipes'
import { ComingSoon } from '../ui/ComingSoon'
import { Icon } from '../ui/Icon'
import { PageHeader } from '../ui/PageHeader'

/**
 * Help (/?show-help=true) will reopen the welcome tour; until the tour exists it shows a short note, and closing the
 * note clears the parameter (the spec clears it after the tour opens).
 */
function HelpNote() {
  const [params, setParams] = useSearchParams()
  if (params.get('show-help') !== 'true') return null
  const close = () =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous)
        next.delete('show-help')
        return next
      },
      { replace: true },
    )
  return (
    <section aria-labelledby="help-title" className={css({ p: '4', pb: '0' })}>
      <div className={card({ padding: 'md' })}>
        <div className={css({ display: 'flex', gap: '3', alignItems: 'flex-start' })}>
          <span className={css({ color: 'accent.text', mt: '0.5' })}>
            <Icon name="help" size={22} />
          </span>
          <div className={css({ flex: 1 })}>
            <h2 id="help-title" className={css({ fontWeight: 'bold' })}>
              Getting around Wren
            </h2>
            <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1', lineHeight: '1.6' })}>
              Use the menu to reach Search, Messages and Notifications. Your theme and password live in Settings. A
              guided tour of everything arrives with the home feed.
            </p>
          </div>
          <button type="button" className={button({ variant: 'ghost', size: 'sm' })} onClick={close}>
            Got it
          </button>
        </div>
      </div>
    </section>
  )
}

export function HomeScreen() {
  return (
    <>
      <PageHeader title="Home" />
      <HelpNote />
      <ComingSoon icon="home" title="Your timeline is on its way">
        Posts from the people you follow will appear here.{' '}
        <span className={css({ whiteSpace: 'nowrap' })}>Follow some users to see their posts here.</span>
      </ComingSoon>
    </>
  )
}
