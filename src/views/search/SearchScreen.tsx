import { useEffect } from 'react'
import { useSelector } from '@xstate/react'
import { useSearch } from 'wouter'
import { css } from 'styled-system/css'
import { input as inputRecipe } from 'styled-system/recipes'
import { searchMachine, type SearchRef } from '../../machines/search/search.machine'
import { selectDiscover, selectQueryText, selectShowsPanels, selectTab } from '../../machines/search/search.selectors'
import { SEARCH_TABS, type SearchTab } from '../../machines/search/search.rules'
import { selectUser } from '../../machines/session/session.selectors'
import { ScreenActor, usePosts, useSession } from '../actors'
import { Icon } from '../ui/Icon'
import { PageHeader } from '../ui/PageHeader'
import { Tabs } from '../ui/Tabs'
import { DiscoverPanels } from './DiscoverPanels'
import { SearchResults } from './SearchResults'

// /search (docs/product.md, "Search and hashtags"): the box (its text is the address's q), then either Trending Now
// and Who to Follow (empty box) or the Posts, Users and Hashtags tabs. All of it is the search actor's; the screen
// sends what the member does and what the address says.

const LABELS: Record<SearchTab, string> = { posts: 'Posts', users: 'Users', hashtags: 'Hashtags' }

const queryOf = (search: string) => new URLSearchParams(search).get('q') ?? ''

export function SearchScreen() {
  const posts = usePosts()
  const viewerId = useSelector(useSession(), (s) => selectUser(s)?.id ?? '')
  const q = queryOf(useSearch())
  return (
    <>
      <PageHeader title="Search" />
      <ScreenActor logic={searchMachine} input={{ posts, viewerId, q }}>
        {(search) => <Search search={search} q={q} />}
      </ScreenActor>
    </>
  )
}

function Search({ search, q }: { search: SearchRef; q: string }) {
  // The address changed by itself (Back, a hashtag link): search what it says. The actor ignores its own writes.
  useEffect(() => {
    search.send({ type: 'search.urlChanged', q })
  }, [search, q])
  const showsPanels = useSelector(search, selectShowsPanels)
  const discover = useSelector(search, selectDiscover)
  return (
    <>
      <SearchBox search={search} />
      {!showsPanels ? (
        <SearchTabs search={search} />
      ) : discover ? (
        <DiscoverPanels discover={discover} onTrend={(hashtag) => search.send({ type: 'search.trend', hashtag })} />
      ) : null}
    </>
  )
}

function SearchBox({ search }: { search: SearchRef }) {
  const text = useSelector(search, selectQueryText)
  return (
    <div className={css({ px: '4', py: '3', borderBottomWidth: '1px', borderColor: 'border' })}>
      <label className={css({ position: 'relative', display: 'block' })}>
        <span className={css({ srOnly: true })}>Search</span>
        <span
          aria-hidden="true"
          className={css({ position: 'absolute', left: '3.5', top: '50%', transform: 'translateY(-50%)', color: 'fg.muted', display: 'flex' })}
        >
          <Icon name="search" size={18} />
        </span>
        <input
          type="search"
          // The screen is for searching: the box has the keyboard as soon as it opens.
          autoFocus
          value={text}
          placeholder="Search posts, users, or hashtags"
          onChange={(event) => search.send({ type: 'search.typed', text: event.target.value })}
          className={`${inputRecipe()} ${css({ pl: '10', borderRadius: 'full' })}`}
        />
      </label>
    </div>
  )
}

function SearchTabs({ search }: { search: SearchRef }) {
  const tab = useSelector(search, selectTab)
  return (
    <Tabs
      label="Search results"
      idPrefix="search"
      tabs={SEARCH_TABS}
      labels={LABELS}
      selected={tab}
      onSelect={(next) => search.send({ type: 'search.tab', tab: next })}
    >
      <SearchResults search={search} />
    </Tabs>
  )
}
