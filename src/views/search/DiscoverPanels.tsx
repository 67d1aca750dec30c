import type { MouseEvent } from 'react'
import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { css } from 'styled-system/css'
import type { DiscoverPanel, DiscoverRef } from '../../machines/discover/discover.machine'
import { selectSuggestions, selectTrends } from '../../machines/discover/discover.selectors'
import { searchHref, tagQuery } from '../../machines/search/search.rules'
import { Spinner } from '../ui/Spinner'
import { UserRow } from './UserRow'

// Trending Now (numbered hashtags with their post counts; each links to the search for its tag) and Who to Follow
// (Follow buttons that work in place), from a discovery actor (src/machines/discover). Search shows them with an empty
// box, Explore beside its timeline, an empty Home below its greeting. `onTrend` lets a screen search the tag itself
// (Search does, in its own actor); without it the link goes to /search.

const section = css({ borderBottomWidth: '1px', borderColor: 'border', pb: '2' })
const heading = css({ fontSize: 'xl', fontWeight: 'extrabold', px: '4', pt: '4', pb: '2' })
const pending = css({ display: 'grid', placeItems: 'center', py: '8', color: 'accent' })

const posts = (count: number) => (count === 1 ? '1 post' : `${count.toLocaleString()} posts`)

export interface DiscoverPanelsProps {
  discover: DiscoverRef
  onTrend?: (hashtag: string) => void
  /** Which panels (both by default); the actor must load them (its `panels`). */
  show?: ReadonlyArray<DiscoverPanel>
  /** Rows that fit a narrow column. */
  dense?: boolean
}

export function DiscoverPanels({ discover, onTrend, show = ['trending', 'suggestions'], dense = false }: DiscoverPanelsProps) {
  return (
    <>
      {show.includes('trending') ? <Trending discover={discover} onTrend={onTrend} /> : null}
      {show.includes('suggestions') ? <WhoToFollow discover={discover} dense={dense} /> : null}
    </>
  )
}

function Trending({ discover, onTrend }: { discover: DiscoverRef; onTrend?: (hashtag: string) => void }) {
  const trends = useSelector(discover, selectTrends)
  const choose = (hashtag: string) => (event: MouseEvent) => {
    if (!onTrend) return
    event.preventDefault()
    onTrend(hashtag)
  }
  return (
    <section aria-labelledby="trending-heading" className={section}>
      <h2 id="trending-heading" className={heading}>
        Trending Now
      </h2>
      {trends === null ? (
        <div className={pending}>
          <Spinner size={24} label="Loading trends" />
        </div>
      ) : (
        <ol>
          {trends.map((trend, index) => (
            <li key={trend.hashtag}>
              <Link
                href={searchHref(tagQuery(trend.hashtag))}
                onClick={choose(trend.hashtag)}
                className={css({
                  display: 'flex',
                  alignItems: 'baseline',
                  gap: '3',
                  w: 'full',
                  px: '4',
                  py: '2.5',
                  textAlign: 'left',
                  cursor: 'pointer',
                  transition: 'background-color 120ms',
                  _hover: { bg: 'bg.subtle' },
                  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
                })}
              >
                <span className={css({ color: 'fg.muted', fontSize: 'sm', minW: '5', fontVariantNumeric: 'tabular-nums' })}>
                  {index + 1}
                </span>
                <span className={css({ display: 'flex', flexDirection: 'column', minW: 0 })}>
                  <span className={css({ fontWeight: 'bold', truncate: true })}>#{trend.hashtag}</span>
                  {trend.count === null ? null : (
                    <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>{posts(trend.count)}</span>
                  )}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function WhoToFollow({ discover, dense }: { discover: DiscoverRef; dense: boolean }) {
  const suggestions = useSelector(discover, selectSuggestions)
  return (
    <section aria-labelledby="who-to-follow-heading" className={section}>
      <h2 id="who-to-follow-heading" className={heading}>
        Who to Follow
      </h2>
      {suggestions === null ? (
        <div className={pending}>
          <Spinner size={24} label="Loading suggestions" />
        </div>
      ) : suggestions.length === 0 ? (
        <p className={css({ px: '4', py: '3', color: 'fg.muted' })}>No suggestions available</p>
      ) : (
        <ul aria-label="Who to Follow">
          {suggestions.map((row) => (
            <UserRow key={row.user.id} row={row} compact dense={dense} />
          ))}
        </ul>
      )}
    </section>
  )
}
