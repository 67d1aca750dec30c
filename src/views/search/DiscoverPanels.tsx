import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import type { SearchRef } from '../../machines/search/search.machine'
import { selectSuggestions, selectTrends } from '../../machines/search/search.selectors'
import { Spinner } from '../ui/Spinner'
import { UserRow } from './UserRow'

// What Search shows with an empty box: Trending Now (numbered hashtags with their post counts; a click searches the
// tag) and Who to Follow. Both are loaded once, when the screen opens.

const section = css({ borderBottomWidth: '1px', borderColor: 'border', pb: '2' })
const heading = css({ fontSize: 'xl', fontWeight: 'extrabold', px: '4', pt: '4', pb: '2' })
const pending = css({ display: 'grid', placeItems: 'center', py: '8', color: 'accent' })

const posts = (count: number) => (count === 1 ? '1 post' : `${count.toLocaleString()} posts`)

export function DiscoverPanels({ search }: { search: SearchRef }) {
  return (
    <>
      <Trending search={search} />
      <WhoToFollow search={search} />
    </>
  )
}

function Trending({ search }: { search: SearchRef }) {
  const trends = useSelector(search, selectTrends)
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
              <button
                type="button"
                onClick={() => search.send({ type: 'search.trend', hashtag: trend.hashtag })}
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
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function WhoToFollow({ search }: { search: SearchRef }) {
  const suggestions = useSelector(search, selectSuggestions)
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
            <UserRow key={row.user.id} row={row} compact />
          ))}
        </ul>
      )}
    </section>
  )
}
