import { useSelector } from '@xstate/react'
import { discoverMachine } from '../../machines/discover/discover.machine'
import { selectUser } from '../../machines/session/session.selectors'
import { ScreenActor, useSession } from '../actors'
import { DiscoverPanels, type DiscoverPanelsProps } from '../search/DiscoverPanels'

// Trending Now and/or Who to Follow with their own discovery actor, for screens that have none of their own (the
// right column beside Explore, an empty Home). Its own chunk (lazy.ts): the first screen of a member with posts in
// Home loads none of it.

export function DiscoverBox({ show, dense }: Pick<DiscoverPanelsProps, 'show' | 'dense'>) {
  const viewerId = useSelector(useSession(), (s) => selectUser(s)?.id ?? '')
  return (
    <ScreenActor logic={discoverMachine} input={{ viewerId, panels: show }}>
      {(discover) => <DiscoverPanels discover={discover} show={show} dense={dense} />}
    </ScreenActor>
  )
}
