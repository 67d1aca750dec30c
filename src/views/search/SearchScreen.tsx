import { ComingSoon } from '../ui/ComingSoon'
import { PageHeader } from '../ui/PageHeader'

export function SearchScreen() {
  return (
    <>
      <PageHeader title="Search" />
      <ComingSoon icon="search" title="Search is coming soon">
        Find posts, people and hashtags, see what is trending and who to follow.
      </ComingSoon>
    </>
  )
}
