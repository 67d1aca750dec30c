import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import { button, card } from 'styled-system/recipes'
import type { InstancePageSlug } from '../../api/contract/instance-pages'
import { instancePageMachine, type InstancePageRef } from '../../machines/instance-page/instance-page.machine'
import { ScreenActor } from '../actors'
import { linkStyle } from '../auth/AuthLayout'
import { fullDate } from '../post/format'
import { Wordmark } from '../ui/Logo'
import { PageHeader } from '../ui/PageHeader'
import { Spinner } from '../ui/Spinner'
import { ThemeToggle } from '../ui/ThemeToggle'
import { MarkdownText } from './MarkdownText'

// /terms and /privacy (docs/product.md, "Instance pages"): the text the instance's admins wrote, for visitors without
// an account (the registration form links here) and for members. Signed out it stands alone with links to sign up
// and log in; signed in it is a screen of the app shell with a way back home.

const TITLES: Record<InstancePageSlug, string> = { terms: 'Terms of Service', privacy: 'Privacy Policy' }
const OTHER: Record<InstancePageSlug, InstancePageSlug> = { terms: 'privacy', privacy: 'terms' }

export function InstancePageScreen({ slug, signedIn }: { slug: InstancePageSlug; signedIn: boolean }) {
  const page = (
    <ScreenActor key={slug} logic={instancePageMachine} input={{ slug }}>
      {(actor) => <PageBody actor={actor} />}
    </ScreenActor>
  )
  const other = OTHER[slug]
  const otherLink = (
    <Link href={`/${other}`} className={linkStyle}>
      {TITLES[other]}
    </Link>
  )
  if (signedIn) {
    return (
      <>
        <PageHeader title={TITLES[slug]} backTo="/" backLabel="Back to Home" />
        <div className={css({ p: { base: '4', md: '6' } })}>
          {page}
          <p className={css({ mt: '8', fontSize: 'sm', color: 'fg.muted' })}>See also the {otherLink}.</p>
        </div>
      </>
    )
  }
  return (
    <div className={css({ minH: '100dvh', display: 'flex', flexDirection: 'column', bg: 'bg.canvas' })}>
      <header className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', px: { base: '4', md: '8' }, py: '4' })}>
        <Wordmark />
        <ThemeToggle />
      </header>
      <main className={css({ flex: 1, display: 'flex', justifyContent: 'center', px: '4', pb: '12' })}>
        <div className={css({ w: 'full', maxW: '760px' })}>
          <nav aria-label="Back" className={css({ mb: '4', fontSize: 'sm' })}>
            <Link href="/register" className={linkStyle}>
              ← Back to sign up
            </Link>
          </nav>
          <article className={card({ padding: 'lg', elevated: true })}>
            <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold', letterSpacing: '-0.02em', mb: '1' })}>
              {TITLES[slug]}
            </h1>
            {page}
          </article>
          <p className={css({ mt: '6', textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>
            See also the {otherLink}. Have an account?{' '}
            <Link href="/login" className={linkStyle}>
              Log in
            </Link>
          </p>
        </div>
      </main>
    </div>
  )
}

function PageBody({ actor }: { actor: InstancePageRef }) {
  const snapshot = useSelector(actor, (s) => s)
  if (snapshot.matches('loading')) {
    return (
      <div className={css({ display: 'grid', placeItems: 'center', py: '16', color: 'accent' })}>
        <Spinner size={28} label="Loading the page" />
      </div>
    )
  }
  if (snapshot.matches('failed')) {
    return (
      <div role="alert" className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '3', py: '6', color: 'fg.muted' })}>
        {snapshot.context.error}
        <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={() => actor.send({ type: 'page.retry' })}>
          Try again
        </button>
      </div>
    )
  }
  const page = snapshot.context.page
  if (!page) return null
  return (
    <>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '6' })}>
        {page.updatedAt ? (
          <>
            Last updated <time dateTime={page.updatedAt}>{fullDate(page.updatedAt)}</time>
          </>
        ) : (
          "This instance's administrators have not written their own text yet: this is Wren's default."
        )}
      </p>
      <MarkdownText text={page.body} />
    </>
  )
}
