import { lazy, Suspense } from 'react'
import { Redirect, Route, Switch } from 'wouter'
import { css } from 'styled-system/css'
import { ComposerHost } from '../composer/ComposerHost'
import { AppShell } from '../shell/AppShell'
import { HomeScreen } from '../home/HomeScreen'
import { Spinner } from '../ui/Spinner'
import { InstancePageScreen } from './instance-page-chunk'

// docs/product.md, "Screens and routes": signed-in members reach the app's routes; anything else (including /login right after logging in)
// goes to /. Home comes with this chunk; every other screen loads on its first visit (the first load of a
// signed-in member stays within 150 KB of gzip JS), Settings with the form library. The post cache and the Create Post
// composer that the shell and every screen share are children of the app actor while signed in.

const SettingsScreen = lazy(() => import('../settings/SettingsScreen').then((m) => ({ default: m.SettingsScreen })))
const ProfileScreen = lazy(() => import('../profile/ProfileScreen').then((m) => ({ default: m.ProfileScreen })))
const FollowListScreen = lazy(() => import('../profile/FollowListScreen').then((m) => ({ default: m.FollowListScreen })))
const PostScreen = lazy(() => import('../post-page/PostScreen').then((m) => ({ default: m.PostScreen })))
const QuotesScreen = lazy(() => import('../post-page/QuotesScreen').then((m) => ({ default: m.QuotesScreen })))
const DraftsScreen = lazy(() => import('../drafts/DraftsScreen').then((m) => ({ default: m.DraftsScreen })))
const ExploreScreen = lazy(() => import('../explore/ExploreScreen').then((m) => ({ default: m.ExploreScreen })))
const SearchScreen = lazy(() => import('../search/SearchScreen').then((m) => ({ default: m.SearchScreen })))
const NotificationsScreen = lazy(() =>
  import('../notifications/NotificationsScreen').then((m) => ({ default: m.NotificationsScreen })),
)
const MessagesScreen = lazy(() => import('../messages/MessagesScreen').then((m) => ({ default: m.MessagesScreen })))
const ListScreen = lazy(() => import('../lists/ListScreen').then((m) => ({ default: m.ListScreen })))
const ResetPasswordScreen = lazy(() =>
  import('../auth/ResetPasswordScreen').then((m) => ({ default: m.ResetPasswordScreen })),
)
const VerifyEmailScreen = lazy(() =>
  import('../email/VerifyEmailScreen').then((m) => ({ default: m.VerifyEmailSignedIn })),
)
const AdminScreen = lazy(() => import('../admin/AdminScreen').then((m) => ({ default: m.AdminScreen })))

function ColumnSpinner() {
  return (
    <div className={css({ display: 'grid', placeItems: 'center', py: '24', color: 'accent' })}>
      <Spinner size={28} label="Loading" />
    </div>
  )
}

export function SignedInRoutes() {
  return (
    <Switch>
      {/* A reset link opened in a signed-in browser still works; the reset then ends this session too. */}
      <Route path="/reset-password">
        <Suspense fallback={<ColumnSpinner />}>
          <ResetPasswordScreen />
        </Suspense>
      </Route>
      <Route>
        <ShellAndScreens />
        <ComposerHost />
      </Route>
    </Switch>
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
          <Route path="/post/:postId/quotes" component={QuotesScreen} />
          <Route path="/explore" component={ExploreScreen} />
          <Route path="/drafts" component={DraftsScreen} />
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
          <Route path="/verify-email" component={VerifyEmailScreen} />
          <Route path="/terms">
            <InstancePageScreen slug="terms" signedIn />
          </Route>
          <Route path="/privacy">
            <InstancePageScreen slug="privacy" signedIn />
          </Route>
          <Route>
            <Redirect to="/" replace />
          </Route>
        </Switch>
      </Suspense>
    </AppShell>
  )
}
