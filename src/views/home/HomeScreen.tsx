import { lazy, Suspense, useEffect } from 'react'
import { useSelector } from '@xstate/react'
import { useSearch } from 'wouter'
import { feedMachine, type FeedRef } from '../../machines/feed/feed.machine'
import { selectIsLoading } from '../../machines/feed/feed.selectors'
import { afterFirstScreen, firstScreenShown } from '../../machines/lib/first-screen'
import { BANNER_DISMISSED_KEY, readFlag, TOUR_COMPLETED_KEY } from '../../machines/lib/local-flags'
import { tourMachine } from '../../machines/tour/tour.machine'
import type { ActorRefFrom } from 'xstate'
import { ScreenActor } from '../actors'
import { welcomeTour } from '../routes/chunks'
import { preloadComposer } from '../composer/ComposerHost'
import { usePosts } from '../actors'
import { PageHeader } from '../ui/PageHeader'
import { useAfterFirstScreen } from '../ui/useAfterFirstScreen'
import { FeedEmpty } from './FeedStates'
import { FeedTimeline } from './FeedTimeline'
import { TOUR_ELEMENT_ID } from './tour-element'
import { WhatsHappening } from './WhatsHappening'

// Home (docs/product.md, "Home feed"): the title, the new-features banner, the welcome tour (?show-help=true reopens
// it), the What's happening box and the feed. The feed actor lives as long as the screen: opening Home always shows
// the latest posts.

/**
 * The new-features banner (with its store library) is its own chunk, fetched only while it has not been dismissed in
 * this browser: a returning member's first load does without it. It shows once the first screen is up: rendered in
 * the first render it would suspend it, and hold the feed's first paint until its chunk came.
 */
const FeatureBanner = lazy(() => import('./FeatureBanner').then((m) => ({ default: m.FeatureBanner })))

function NewFeatures() {
  const firstScreenUp = useAfterFirstScreen()
  if (!firstScreenUp || readFlag(BANNER_DISMISSED_KEY)) return null
  return (
    <Suspense fallback={null}>
      <FeatureBanner />
    </Suspense>
  )
}

/**
 * The tour's card is its own chunk too (../routes/chunks.ts): a returning member has finished the tour, so their first
 * load does without it; it comes after the first screen, so Help finds it here.
 */
const WelcomeTour = welcomeTour.lazy((m) => m.WelcomeTour)

function Tour({ tour }: { tour: ActorRefFrom<typeof tourMachine> }) {
  const open = useSelector(tour, (s) => s.hasTag('open'))
  useEffect(() => welcomeTour.loadAfterFirstScreen(), [])
  if (!open) return null
  return (
    <Suspense fallback={null}>
      <WelcomeTour tour={tour} />
    </Suspense>
  )
}

/** Brings the reopened tour into view and gives it the keyboard, once its card is on the page (within about 2 s). */
function focusTour(framesLeft = 120) {
  const card = document.getElementById(TOUR_ELEMENT_ID)
  if (card) {
    window.scrollTo({ top: 0 })
    card.focus()
  } else if (framesLeft > 0) requestAnimationFrame(() => focusTour(framesLeft - 1))
}

function Feed() {
  const posts = usePosts()
  return <ScreenActor logic={feedMachine} input={{ posts }}>{(feed) => <FeedList feed={feed} />}</ScreenActor>
}

/** Home's feed. Home is the first screen, so it says it is up once the feed has answered (lib/first-screen.ts). */
function FeedList({ feed }: { feed: FeedRef }) {
  const loading = useSelector(feed, selectIsLoading)
  useEffect(() => {
    if (!loading) firstScreenShown()
  }, [loading])
  return <FeedTimeline feed={feed} label="Home feed" empty={<FeedEmpty onReload={() => feed.send({ type: 'feed.reload' })} />} />
}

export function HomeScreen() {
  return (
    <ScreenActor logic={tourMachine} input={{ completed: readFlag(TOUR_COMPLETED_KEY) }}>
      {(tour) => <Home tour={tour} />}
    </ScreenActor>
  )
}

function Home({ tour }: { tour: ActorRefFrom<typeof tourMachine> }) {
  const showHelp = new URLSearchParams(useSearch()).get('show-help') === 'true'

  useEffect(() => {
    if (!showHelp) return
    tour.send({ type: 'tour.help.requested' })
    // Reopened on purpose: bring it into view and give it the keyboard (not on a first visit, which is not asked for).
    // Not cancelled on cleanup: the tour drops ?show-help from the address at once, which re-runs this effect.
    requestAnimationFrame(() => focusTour())
  }, [showHelp, tour])

  useEffect(() => afterFirstScreen(preloadComposer), [])

  return (
    <>
      <PageHeader title="Home" />
      <Tour tour={tour} />
      <NewFeatures />
      <WhatsHappening />
      <Feed />
    </>
  )
}
