import { lazy, Suspense } from 'react'
import { Redirect, Route, Switch } from 'wouter'
import { css } from 'styled-system/css'
import { ComposerHost } from '../composer/ComposerHost'
import { AppShell } from '../shell/AppShell'
import { AdminScreen } from '../admin/AdminScreen'
import { FollowListScreen } from '../profile/FollowListScreen'
import { HomeScreen } from '../home/HomeScreen'
import { ListScreen } from '../lists/ListScreen'
import { MessagesScreen } from '../messages/MessagesScreen'
import { NotificationsScreen } from '../notifications/NotificationsScreen'
import { PostScreen } from '../post-page/PostScreen'
import { ProfileScreen } from '../profile/ProfileScreen'
import { SearchScreen } from '../search/SearchScreen'
import { Spinner } from '../ui/Spinner'

// docs/product.md, "Screens and routes": signed-in members reach the app's routes; anything else (including /login right after logging in)
// goes to /. Settings carries the form library, so it loads on first visit instead of with Home. The post cache and the
// Create Post composer that the shell and every screen share are children of the app actor while signed in.

const SettingsScreen = lazy(() => import('../settings/SettingsScreen').then((m) => ({ default: m.SettingsScreen })))

function ColumnSpinner() {
  return (
    <div className={css({ display: 'grid', placeItems: 'center', py: '24', color: 'accent' })}>
      <Spinner size={28} label="Loading" />
    </div>
  )
}

export function SignedInRoutes() {
  return (
    <>
      <ShellAndScreens />
      <ComposerHost />
    </>
  )
}

function ShellAndScreens() {
  return (
    <AppShell>
      <Suspense fallback={<ColumnSpinner />}>
        <Switch>
          <Route path="/" component={HomeScreen} />
          <Route path="/profile/:username">{({ username }) => <ProfileScreen username={username} />}</Route>
          <Route path="/profile/:username/followers">
            {({ username }) => <FollowListScreen username={username} kind="followers" />}
          </Route>
          <Route path="/profile/:username/following">
            {({ username }) => <FollowListScreen username={username} kind="following" />}
          </Route>
          <Route path="/post/:postId" component={PostScreen} />
          <Route path="/search" component={SearchScreen} />
          <Route path="/notifications" component={NotificationsScreen} />
          <Route path="/messages">
            <MessagesScreen />
          </Route>
          <Route path="/messages/:conversationId">
            {({ conversationId }) => <MessagesScreen conversationId={conversationId} />}
          </Route>
          <Route path="/lists/:listId">{({ listId }) => <ListScreen listId={listId} />}</Route>
          <Route path="/settings" component={SettingsScreen} />
          <Route path="/admin" component={AdminScreen} />
          <Route>
            <Redirect to="/" replace />
          </Route>
        </Switch>
      </Suspense>
    </AppShell>
  )
}
