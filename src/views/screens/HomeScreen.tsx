import { css } from 'styled-system/css'
import { ComingSoon } from '../ui/ComingSoon'
import { PageHeader } from '../ui/PageHeader'

export function HomeScreen() {
  return (
    <>
      <PageHeader title="Home" />
      <ComingSoon icon="home" title="Your timeline is on its way">
        Posts from the people you follow will appear here.{' '}
        <span className={css({ whiteSpace: 'nowrap' })}>Follow some users to see their posts here.</span>
      </ComingSoon>
    </>
  )
}
