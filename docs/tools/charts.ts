// Writes one Mermaid state diagram per machine to docs/machines/<name>.md, and an index, FROM the machine definitions
// (machine.root: state nodes, their initial states, tags, invocations and every transition). Run `npm run charts`
// after changing a machine and commit the result; the output is deterministic, so an unchanged machine leaves no diff.
//
//   npm run charts              writes docs/machines (and removes generated pages of machines no longer listed)
//   npm run charts -- --check   writes nothing; lists stale, missing and extra pages and exits 1 if there are any
//                               (`npm run check:charts`, and a step of `npm test`)
//
// Adding a machine: import it below and add ONE entry to `charts` (where it goes in the list is where it shows in the
// index):
//
//   {
//     name: 'toasts',                                   // the page: docs/machines/toasts.md
//     title: 'Toasts',                                  // the page's heading and its name in the index
//     source: 'src/machines/toasts/toasts.machine.ts',  // linked from the page; must exist
//     summary: 'What the member sees, in a few sentences: ...',
//     machine: toastsMachine,
//   },
//
// then run `npm run charts` and commit docs/machines with the machine. Give the machine model-based tests too, and list
// its model in tests/machines/models/index.ts so `npm run paths -- <name>` prints the paths they walk.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AnyStateMachine, AnyStateNode } from 'xstate'
import { appMachine } from '../../src/machines/app/app.machine'
import { memberMachine } from '../../src/machines/member/member.machine'
import { themeMachine } from '../../src/machines/theme/theme.machine'
import { toastsMachine } from '../../src/machines/toasts/toasts.machine'
import { changePasswordMachine } from '../../src/machines/change-password/change-password.machine'
import { twoFactorMachine } from '../../src/machines/two-factor/two-factor.machine'
import { emailMachine } from '../../src/machines/email/email.machine'
import { verifyEmailMachine } from '../../src/machines/email/verify-email.machine'
import { accountDeletionMachine } from '../../src/machines/account-deletion/account-deletion.machine'
import { keysMachine } from '../../src/machines/keys/keys'
import { loginMachine } from '../../src/machines/login/login.machine'
import { registerMachine } from '../../src/machines/register/register.machine'
import { composerMachine } from '../../src/machines/composer/composer.machine'
import { postHistoryMachine } from '../../src/machines/post-history/post-history.machine'
import { feedMachine } from '../../src/machines/feed/feed.machine'
import { searchMachine } from '../../src/machines/search/search.machine'
import { discoverMachine } from '../../src/machines/discover/discover.machine'
import { shareMachine } from '../../src/machines/share/share.machine'
import { pollMachine } from '../../src/machines/poll/poll.machine'
import { postsMachine } from '../../src/machines/posts/posts.machine'
import { tourMachine } from '../../src/machines/tour/tour.machine'
import { describeState, listStateNodes, listTransitions, triggerText, type TransitionInfo } from './machine-graph'
import { postPageMachine } from '../../src/machines/post-page/post-page.machine'
import { followListMachine } from '../../src/machines/follow-list/follow-list.machine'
import { followMachine } from '../../src/machines/follow/follow.machine'
import { blockMachine } from '../../src/machines/block/block.machine'
import { blockedMachine } from '../../src/machines/blocked/blocked.machine'
import { muteMachine } from '../../src/machines/mute/mute.machine'
import { detachQuoteMachine } from '../../src/machines/detach-quote/detach-quote.machine'
import { muteListsMachine, mutesMachine } from '../../src/machines/mutes/mutes.machine'
import { sessionsMachine } from '../../src/machines/sessions/sessions.machine'
import { exportMachine } from '../../src/machines/export/export.machine'
import { draftsMachine } from '../../src/machines/drafts/drafts.machine'
import { bookmarksMachine } from '../../src/machines/bookmarks/bookmarks.machine'
import { listsMachine } from '../../src/machines/lists/lists.machine'
import { namedGroupFormMachine } from '../../src/machines/named-group-form/named-group-form.machine'
import { listPageMachine } from '../../src/machines/list-page/list-page.machine'
import { addToListMachine } from '../../src/machines/add-to-list/add-to-list.machine'
import { settingsPageMachine } from '../../src/machines/settings-page/settings-page.machine'
import { followRequestsMachine } from '../../src/machines/follow-requests/follow-requests.machine'
import { profileMachine } from '../../src/machines/profile/profile.machine'
import { sessionMachine } from '../../src/machines/session/session.machine'
import { profileSettingsMachine } from '../../src/machines/profile-settings/profile-settings.machine'
import { conversationsMachine } from '../../src/machines/conversations/conversations.machine'
import { notificationsMachine } from '../../src/machines/notifications/notifications.machine'
import { notificationListMachine } from '../../src/machines/notifications/notification-list.machine'
import { analyticsMachine } from '../../src/machines/analytics/analytics.machine'
import { notificationPreferencesMachine } from '../../src/machines/notification-preferences/notification-preferences.machine'
import { conversationMachine } from '../../src/machines/conversation/conversation.machine'
import { messageAttachmentsMachine } from '../../src/machines/message-attachments/message-attachments.machine'
import { attachmentViewMachine } from '../../src/machines/attachment-view/attachment-view.machine'
import { newMessageMachine } from '../../src/machines/new-message/new-message.machine'
import { reportMachine } from '../../src/machines/report/report.machine'
import { reportsMachine } from '../../src/machines/reports/reports.machine'
import { adminMachine } from '../../src/machines/admin/admin.machine'
import { auditLogMachine } from '../../src/machines/admin/audit-log.machine'
import { forgotPasswordMachine } from '../../src/machines/password-reset/forgot-password.machine'
import { resetPasswordMachine } from '../../src/machines/password-reset/reset-password.machine'
import { recoveryKeyMachine } from '../../src/machines/password-reset/recovery-key.machine'
import { instancePagesMachine } from '../../src/machines/admin/instance-pages.machine'
import { instancePageMachine } from '../../src/machines/instance-page/instance-page.machine'

interface ChartSpec {
  /** File name under docs/machines (without .md). */
  name: string
  /** Heading of the page and the machine's name in the index. */
  title: string
  /** The machine's file, from the repository root. */
  source: string
  /** What the machine does, for a reader who has not seen the code. */
  summary: string
  machine: AnyStateMachine
}

const charts: ChartSpec[] = [
  {
    name: 'app',
    title: 'App (the root actor)',
    source: 'src/machines/app/app.machine.ts',
    summary:
      'The root of every actor in the web app. It starts the session, theme and toasts (systemIds `session`, `theme`, ' +
      '`toasts`) and the api bridge (bearer token, any 401 ends the session), and follows the session: a spinner while ' +
      'a stored token is checked, then signed out or signed in. While signed in it runs the member actor (post cache, ' +
      'composer, realtime socket), stopped on sign-out. Screens open their own actors as its children ' +
      '(`app.screen.open` / `app.screen.close`) for as long as they are shown.',
    machine: appMachine,
  },
  {
    name: 'member',
    title: 'Signed-in member',
    source: 'src/machines/member/member.machine.ts',
    summary:
      'What exists only while a member is signed in: the post cache (`posts`), the Create Post composer (`composer`) and ' +
      "the realtime socket (`realtime`), connected with the member's token. The socket's ups and downs go up to the app.",
    machine: memberMachine,
  },
  {
    name: 'theme',
    title: 'Theme',
    source: 'src/machines/theme/theme.machine.ts',
    summary:
      'Light (the default) or dark. The toggle flips it, Appearance sets it; every change is saved under ' +
      '`theme-storage` and the whole page switches at once.',
    machine: themeMachine,
  },
  {
    name: 'toasts',
    title: 'Toasts',
    source: 'src/machines/toasts/toasts.machine.ts',
    summary:
      'The messages at the bottom right. Blank, error and custom toasts last 4 s, success 2 s, loading until dismissed ' +
      'or replaced (re-adding an id replaces that toast and restarts its time); at most 20 at once, the oldest going ' +
      'first. Machines show toasts through the system (`showToast`).',
    machine: toastsMachine,
  },
  {
    name: 'session',
    title: 'Session',
    source: 'src/machines/session/session.machine.ts',
    summary:
      'Who is signed in. Starts unauthenticated and loading; a stored token is checked with GET /auth/me (10 s abort). ' +
      '401/403 clear the session; a timeout, network error, 500/503 or any other failure keeps it. Login/register ' +
      'success signs in, logout clears even if the server call fails, and any other 401 (`session.expired`) clears. ' +
      'Every change is written to localStorage `auth-storage`.',
    machine: sessionMachine,
  },
  {
    name: 'login',
    title: 'Login form',
    source: 'src/machines/login/login.machine.ts',
    summary:
      'Runs after the form fields are valid. After the server says yes, `unlocking` opens the message key with the ' +
      'password just typed (or, for a keyless or marked account, makes a pair and sends it with PUT /auth/keys); ' +
      'whatever happens there, the keys actor hears the outcome; `keeping` waits (3 s at most) until the key is in ' +
      'the browser\'s store, so a reload right after finds it; then the session is told (`session.login.succeeded`) ' +
      "and home is shown. Failure shows the server's message under the form and the member can try again.",
    machine: loginMachine,
  },
  {
    name: 'register',
    title: 'Registration form',
    source: 'src/machines/register/register.machine.ts',
    summary:
      'Runs after the form fields are valid. `makingKeys` makes the message key pair from the typed password (without ' +
      'WebCrypto the account is made keyless and the reason kept); the public key and the wrapped private key go ' +
      'with the registration. Success tells the keys actor, waits in `keeping` until the key is in the store, then ' +
      "tells the session (`session.register.succeeded`) and goes home; failure shows the server's message (e.g. 'Username is already taken') under the form.",
    machine: registerMachine,
  },
  {
    name: 'keys',
    title: 'Message keys',
    source: 'src/machines/keys/keys.ts',
    summary:
      "systemId 'keys', a child of the app. Login or register settle the member's keys (`keys.settled`: ready, " +
      'saved in IndexedDB; or missing/unavailable with the reason); a reload loads the unwrapped key by user id ' +
      '(`keys.load`); sign-out (logout, expiry, revocation) forgets the store and the conversation keys ' +
      '(`keys.forget`). `conversationKeyFor(system, theirPublicKey)` derives conversation keys through the cache.',
    machine: keysMachine,
  },
  {
    name: 'change-password',
    title: 'Change Password dialog',
    source: 'src/machines/change-password/change-password.machine.ts',
    summary:
      'Settings -> Security. `rewrapping` re-wraps the message key the session holds (wrapped) under the new password ' +
      "and sends it with the change (none for a keyless account, or when it does not open with the current password: " +
      "the server checks that password first and answers 'Current password is incorrect'). " +
      "Success closes the dialog with the toast 'Password changed successfully!' and the session keeps the new wrapped " +
      "key; failure keeps " +
      "it open with a toast of the server's error or 'Failed to change password'. Escape and the backdrop close it, " +
      'except while the change is being saved.',
    machine: changePasswordMachine,
  },
  {
    name: 'two-factor',
    title: 'Two-Factor Authentication dialog',
    source: 'src/machines/two-factor/two-factor.machine.ts',
    summary:
      'Settings -> Security. Off: the server makes a secret (`settingUp`), the dialog shows its QR code and text and ' +
      'asks for a code and the password (`confirming`); `enabling` proves the password as a password change does ' +
      '(derived in the browser) and answers ten recovery codes, shown once (`showingCodes`: Download as .txt, Copy). ' +
      'On: `manage` turns it off (closes with a toast) or makes new recovery codes, each with the password and a code. ' +
      "A refused code or password keeps the dialog open with the server's words; the session hears `twoFactorEnabled`.",
    machine: twoFactorMachine,
  },
  {
    name: 'email',
    title: 'Email address (banner and Account row)',
    source: 'src/machines/email/email.machine.ts',
    summary:
      'The unconfirmed banner in the shell and the Email row of Settings -> Account each run one. Three regions side ' +
      'by side: `banner` (shown until dismissed), `resend` (a new link, with a toast either way) and `dialog` (Change ' +
      'email: the new address and the password, proven as a password change does; the session hears the pending ' +
      "address, or the dialog stays open with the server's words).",
    machine: emailMachine,
  },
  {
    name: 'verify-email',
    title: 'Confirm email page',
    source: 'src/machines/email/verify-email.machine.ts',
    summary:
      '/verify-email?token=, signed in or out: opens the mailed link once (`verifying`), then "Email confirmed" (a ' +
      "signed-in session is refreshed from the server) or the server's words. Only a failure that may pass (offline, " +
      'a server error) offers Try again; a page without a token fails at once.',
    machine: verifyEmailMachine,
  },
  {
    name: 'profile',
    title: 'Profile page',
    source: 'src/machines/profile/profile.machine.ts',
    summary:
      "/profile/{username}: loading, then the member, 'User not found' or an error with Retry. Once loaded, two " +
      'regions run side by side: `list` loads the open tab (Posts, Replies, Media, Likes) from the server with ?tab= ' +
      'and pages on (a new tab cancels the old one); `upload` replaces the owner\'s avatar or banner and tells the ' +
      'session (`session.user.updated`). The posts go to the post cache, which tells the list about created and ' +
      'deleted posts. A visitor\'s Follow button is a child actor (Follow button chart).',
    machine: profileMachine,
  },
  {
    name: 'follow',
    title: 'Follow button',
    source: 'src/machines/follow/follow.machine.ts',
    summary:
      'One Follow/Unfollow button, spawned by the profile header and by every row of a followers/following list. ' +
      'A click flips the button and the followers count at once; the server\'s answer sets both exactly and says ' +
      "'Following' / 'Unfollowed' (profile) or 'Following user' / 'Unfollowed user' (lists); a refusal puts back " +
      'what was shown (with the server\'s reason on the profile, silently in lists). Clicks wait while saving.',
    machine: followMachine,
  },
  {
    name: 'block',
    title: 'Block User',
    source: 'src/machines/block/block.machine.ts',
    summary:
      "Block User from a post card's menu or another member's profile: a confirm dialog, then POST /blocks/user/{id}. " +
      "Once the server agrees it says 'User blocked', tells the post cache (`author.blocked`) so the member's posts " +
      "leave every list on screen, and from a profile goes to '/'. A refusal is silent.",
    machine: blockMachine,
  },
  {
    name: 'blocked',
    title: 'Blocked accounts (settings)',
    source: 'src/machines/blocked/blocked.machine.ts',
    summary:
      'Settings -> Blocked Accounts: the lists actor (src/machines/filter-lists/filter-lists.machine.ts, shared with ' +
      'Mute Management) on GET /blocks, read when the section opens (spinner), then the blocked members (Unblock is ' +
      '`user.remove`; Load more while there is a next page) and the keyword and domain chips (remove), with an Add form ' +
      "for each, checked first (filter-lists.rules.ts). One change saves at a time. Successes toast ('User unblocked', " +
      "'Keyword blocked'...); a refused Add says why under its form (the server's words, else 'Failed to block " +
      "keyword' / 'Invalid domain format'); refused unblocks and removals are silent.",
    machine: blockedMachine,
  },
  {
    name: 'mute',
    title: 'Mute @user',
    source: 'src/machines/mute/mute.machine.ts',
    summary:
      "Mute @user from a post card's menu or another member's profile: a small confirm dialog with an optional reason " +
      "(at most 200 characters; Mute is refused while it is longer), then POST /mutes/user. Once the server agrees it " +
      "says 'User muted successfully' and tells the post cache (`author.muted`), so the Home feed drops the member's " +
      "posts at once; the profile and the post page keep them (mute is feed-only). A refusal toasts the server's words, " +
      "else 'Failed to mute', and keeps the dialog and the reason.",
    machine: muteMachine,
  },
  {
    name: 'detach-quote',
    title: 'Detach quote',
    source: 'src/machines/detach-quote/detach-quote.machine.ts',
    summary:
      "Detach quote, from the menu of a quote of the member's own post: a confirm dialog (it cannot be undone), then " +
      "POST /posts/{id}/detach. Once the server agrees it says 'Quote detached' and tells the post cache " +
      "(`post.quote.detached`), so the quote shows 'This post is unavailable' at once; the actor is then done for good. " +
      "A refusal toasts the server's words, else 'Could not detach the quote', and keeps the dialog.",
    machine: detachQuoteMachine,
  },
  {
    name: 'mutes',
    title: 'Mute Management (settings)',
    source: 'src/machines/mutes/mutes.machine.ts',
    summary:
      'Settings -> Mutes: the Mute Management dialog, opened at once by `?tab=mutes` or later by Manage Mutes. Each ' +
      'opening starts a fresh lists actor (Mute lists) and shows the Users tab; the dialog stays open while a change ' +
      'is being saved.',
    machine: mutesMachine,
  },
  {
    name: 'mute-lists',
    title: 'Mute lists (inside Mute Management)',
    source: 'src/machines/mutes/mutes.machine.ts',
    summary:
      'The lists actor (src/machines/filter-lists/filter-lists.machine.ts, shared with Blocked Accounts) on GET /mutes: ' +
      'spinner or Try again, then the Users, Keywords and Domains tabs: muted members with their reason (Unmute is ' +
      '`user.remove`; Load more while there is a next page), keyword and domain chips (remove) with an Add form each, ' +
      "checked first (filter-lists.rules.ts). One change saves at a time. Every outcome toasts: '... muted " +
      "successfully' / '... unmuted successfully', or the server's words, else 'Failed to mute' / 'Failed to unmute'.",
    machine: muteListsMachine,
  },
  {
    name: 'sessions',
    title: 'View Sessions (settings)',
    source: 'src/machines/sessions/sessions.machine.ts',
    summary:
      'Settings -> Security -> View Sessions: the browsers and devices signed in to the account. Each opening reads ' +
      'GET /auth/sessions (spinner, or the reason and Try again): this device first, marked "This device", then the ' +
      'others by last use, with Load more while there is a next page. Sign out on any other session (it leaves the ' +
      'list once the server agrees) and "Sign out all other sessions" (then the list is read again); one at a time, ' +
      "and the dialog stays open until it is answered. Every sign-out toasts: 'Session signed out' / 'Signed out N " +
      "other sessions', or the server's words, else 'Could not sign out that session'.",
    machine: sessionsMachine,
  },
  {
    name: 'export',
    title: 'Export my data',
    source: 'src/machines/export/export.machine.ts',
    summary:
      'Settings -> Account -> Export my data. The member\'s exports are read when the row shows (or the reason and Try ' +
      'again). "Export my data" asks the server for a zip (one at a time: refused while one is being prepared, then the ' +
      'list is read again); while it is prepared, the "ready" notification reads the list again. "Download" fetches the ' +
      'zip, adds the conversations decrypted in this browser (or says why it could not) and saves the file.',
    machine: exportMachine,
  },
  {
    name: 'drafts',
    title: 'Drafts & Scheduled',
    source: 'src/machines/drafts/drafts.machine.ts',
    summary:
      'The Drafts & Scheduled screen: two tabs read page by page, each row opened into the composer, deleted, and on ' +
      'Scheduled rescheduled (checked against the schedule window first) or cancelled back to Drafts; the list is read ' +
      'again after each change.',
    machine: draftsMachine,
  },
  {
    name: 'settings-page',
    title: 'Settings page',
    source: 'src/machines/settings-page/settings-page.machine.ts',
    summary:
      'Which Settings section shows and which of the page\'s dialogs is open. `?tab=` picks the section (on arrival ' +
      'and whenever the address changes); for lists, bookmarks, reports and analytics it opens the section\'s dialog at ' +
      'once, and the section\'s button opens it again. Escape, the backdrop and the close button close it, except while ' +
      'the Bookmarks dialog saves something. The Bookmarks dialog\'s actor runs only while its dialog is open.',
    machine: settingsPageMachine,
  },
  {
    name: 'bookmarks',
    title: 'Bookmarks dialog (settings)',
    source: 'src/machines/bookmarks/bookmarks.machine.ts',
    summary:
      'Settings -> Bookmarks: reads the first page of bookmarks and of collections (spinner, or Try again). The ' +
      'Bookmarks tab shows the saved posts as post cards (Load more), Remove (asks the post cache, as the card\'s ' +
      'button does: one call, one set of toasts) and Add to ' +
      'collection (pick one); the Collections tab has New Collection and Edit (the named-group-form child: ' +
      '\'Collection created successfully\' / \'Collection updated successfully\'; a refusal keeps the form and says ' +
      'why under it and in a toast), and opens one collection to show its posts, each with Remove from collection. ' +
      'One change at a time; a card\'s own bookmark button, anywhere, takes an unsaved post off the list at once.',
    machine: bookmarksMachine,
  },
  {
    name: 'lists',
    title: 'Manage Lists dialog (settings)',
    source: 'src/machines/lists/lists.machine.ts',
    summary:
      'Settings -> Lists: reads the member\'s lists and subscriptions (spinner, or Try again; Load more). New List and ' +
      'Edit open the form (the named-group-form child: \'List created successfully\' / \'List updated successfully\'; a ' +
      'refusal keeps the form and says why under it and in a toast, the server\'s words, else \'Failed to create ' +
      'list\' / \'Failed to update list\'). Delete asks \'Are you sure you want to delete this list?\' (\'List deleted ' +
      'successfully\'). Members opens one own list: its members with Remove, and a member search (2+ characters, 500 ' +
      'ms after the last keystroke) whose results can be added. Subscribed lists offer Unsubscribe and Subscribe.',
    machine: listsMachine,
  },
  {
    name: 'named-group-form',
    title: 'List / collection form',
    source: 'src/machines/named-group-form/named-group-form.machine.ts',
    summary:
      'The form of Manage Lists (New List, Edit) and of the Bookmarks dialog (New Collection, Edit), a child of either ' +
      'dialog: Name, Description, Private. Submit checks the rules (name required, at most 50 characters; description ' +
      'at most 200; trimmed): a broken one is said under the form and nothing is sent; a valid draft goes to the ' +
      'dialog, trimmed, and the form waits. The dialog closes it once saved, or sends why it was refused (shown under ' +
      'the form, what was typed kept). Typing clears the message; Cancel tells the dialog.',
    machine: namedGroupFormMachine,
  },
  {
    name: 'list-page',
    title: 'List page',
    source: 'src/machines/list-page/list-page.machine.ts',
    summary:
      '/lists/{id}: reads the list (name, description, owner, counts, first members); a list that does not exist or ' +
      'that the member may not see shows \'List not found\', another failure Try again. Someone else\'s list offers ' +
      'Subscribe / Unsubscribe. Its timeline below is the feed actor with the list as its source.',
    machine: listPageMachine,
  },
  {
    name: 'add-to-list',
    title: 'Add to list (profile)',
    source: 'src/machines/add-to-list/add-to-list.machine.ts',
    summary:
      'Another member\'s profile: Add to list opens one checkbox per list of the viewer\'s own, ticked where the member ' +
      'is on it. Ticking adds them (\'Added to list\'), clearing removes them (\'Removed from list\'); a refusal ' +
      'leaves the box as it was and says why. One change at a time.',
    machine: addToListMachine,
  },
  {
    name: 'follow-requests',
    title: 'Follow requests (settings, notifications)',
    source: 'src/machines/follow-requests/follow-requests.machine.ts',
    summary:
      'The member\'s incoming follow requests: reads GET /follow-requests when Settings -> Privacy & Safety or ' +
      'Notifications opens (spinner), then lists them (Load more while there is a next page) with Approve and Decline ' +
      "per row. One answer saves at a time (its row is busy, the other buttons wait); the row goes once the server " +
      "agrees, with 'Follow request approved' / 'Follow request declined'. A refusal keeps the row (a 404, a request " +
      "already gone, drops it) and toasts the server's words, else 'Failed to approve request' / 'Failed to decline request'.",
    machine: followRequestsMachine,
  },
  {
    name: 'follow-list',
    title: 'Followers / Following list',
    source: 'src/machines/follow-list/follow-list.machine.ts',
    summary:
      "/profile/{username}/followers and /following: the first page (or 'User not found', or an error with Retry), " +
      'then Load more while the last page came back full (20) and the server gave a next cursor. A failed Load more ' +
      'keeps the rows. Every row but the viewer\'s own spawns a Follow button actor.',
    machine: followListMachine,
  },
  {
    name: 'profile-settings',
    title: 'Profile and privacy settings',
    source: 'src/machines/profile-settings/profile-settings.machine.ts',
    summary:
      "Settings -> Profile and Privacy & Safety, saved independently (parallel regions). A save stores the server's " +
      "answer as the session's user (which refills the forms) with 'Profile updated' / 'Privacy settings updated'; " +
      "a refusal keeps the form and shows the server's reason (or a default) under it.",
    machine: profileSettingsMachine,
  },
  {
    name: 'composer',
    title: 'Post composer',
    source: 'src/machines/composer/composer.machine.ts',
    summary:
      "The Create Post dialog and a post page's reply box. Submit checks every posting rule (500 characters, " +
      "content unless media, at most 4 files, a valid visibility, a schedule date not before today) and goes back to " +
      "editing with the messages, or sends the multipart form (uploading with files, posting without). Success says " +
      "'Post created!' / 'Reply posted!' and hands the post to the post cache; failure keeps the draft and says the " +
      "server's error, else its details, else the client's message, else 'An error occurred while creating the post'. " +
      'Each file has a preview actor owning its object URL (revoked when the file goes). Edit mode ' +
      "(`composer.edit.open`, an own post's Edit) prefills the post, keeps its files (alt texts editable), refuses a " +
      "wider audience, and saves through `saving` (only what changed): 'Post updated!', the card updated in place, " +
      'and the new-post draft set aside meanwhile comes back.',
    machine: composerMachine,
  },
  {
    name: 'post-history',
    title: 'Post edit history',
    source: 'src/machines/post-history/post-history.machine.ts',
    summary:
      "The History dialog a card's '(edited)' opens (its actor starts on the first click): the post's versions, newest " +
      'first, one page at a time with Load more; a failed first read offers Try again, a failed Load more keeps what ' +
      'is shown. Closing drops the versions; opening again reads them afresh.',
    machine: postHistoryMachine,
  },
  {
    name: 'posts',
    title: 'Post cache',
    source: 'src/machines/posts/posts.machine.ts',
    summary:
      'Every post the member has seen, stored once by id; lists hold ids. Like and repost change the card at once, ' +
      "take the server's state and count when it answers, and roll back when it refuses (one call per post and " +
      "reaction at a time, each a spawned child). Delete waits for the server, then removes the post, says 'Post " +
      "deleted' and tells the lists (`post.deleted`); new posts from a composer are announced too (`post.created`).",
    machine: postsMachine,
  },
  {
    name: 'feed',
    title: 'Home feed, list timelines, Explore and quotes',
    source: 'src/machines/feed/feed.machine.ts',
    summary:
      'The first page loads when Home (or a list\'s page) opens (error: a message and Try again). Near the end of the ' +
      'list the next page loads (end when there is no next cursor); a failed next page keeps the posts shown and offers ' +
      'Try again. Deleted posts leave, as the post cache announces them, without a refetch; the member\'s own new posts ' +
      'go on top of Home. Its source says whose timeline it reads: the home feed, a list\'s, or Explore (the community ' +
      'timeline). Reload reads the first page again (an empty Home after following someone).',
    machine: feedMachine,
  },
  {
    name: 'search',
    title: 'Search',
    source: 'src/machines/search/search.machine.ts',
    summary:
      '/search: the box is the address\'s q. Typing waits 500 ms after the last key, then searches the open tab (Posts, ' +
      'Users or Hashtags) and replaces ?q= in the address; an empty box shows Trending Now and Who to Follow (the ' +
      'discovery actor, started with the screen). A trending hashtag or one chosen on the ' +
      'Hashtags tab searches #tag on Posts. Each search: loading, the list (next pages, Try again), empty or failed ' +
      '(Try again); a users query under 2 characters makes no call. User rows each get a Follow actor.',
    machine: searchMachine,
  },
  {
    name: 'discover',
    title: 'Trending Now and Who to Follow',
    source: 'src/machines/discover/discover.machine.ts',
    summary:
      'The discovery panels of an empty Search box, beside Explore and on an empty Home: the trending hashtags (the fixed ' +
      'list when there are none or they fail, silently) and members to follow, each with a Follow button that works in ' +
      'place (none after a failure). Both load once, when the panels open.',
    machine: discoverMachine,
  },
  {
    name: 'share',
    title: 'Share',
    source: 'src/machines/share/share.machine.ts',
    summary:
      "A post's Share button: where the browser has a share sheet it opens with the post page's link (closing it does " +
      "nothing; any other refusal copies the link instead); otherwise the link is copied: 'Link copied', or an error " +
      'toast when the browser refuses the clipboard. One share at a time.',
    machine: shareMachine,
  },
  {
    name: 'poll',
    title: 'Poll vote',
    source: 'src/machines/poll/poll.machine.ts',
    summary:
      "A poll's vote form on a post card: one option (or several on a multiple-choice poll), then Vote. The counted poll " +
      'goes to the post cache, so every card of the post shows the results; a refusal (already voted, closed, not ' +
      'visible, offline) is said under the options and as a toast, the choices kept.',
    machine: pollMachine,
  },
  {
    name: 'post-page',
    title: 'Post page',
    source: 'src/machines/post-page/post-page.machine.ts',
    summary:
      "/post/{id}: the post and its replies (oldest first, Load more). Any failure to load is 'Post not found'. A reply " +
      'posted here joins the end of the list; deleting the post itself goes back Home.',
    machine: postPageMachine,
  },
  {
    name: 'tour',
    title: 'Welcome tour',
    source: 'src/machines/tour/tour.machine.ts',
    summary:
      "Home's six-step tour (welcome, connecting, discovering, messaging, updates, customising) with Skip Tour, Next " +
      "and Get Started. It opens by itself until skipped or finished once (`welcome-tour-completed`) and again with " +
      '?show-help=true (the shell\'s Help), which is then removed from the address.',
    machine: tourMachine,
  },
  {
    name: 'conversations',
    title: 'Conversation list',
    source: 'src/machines/conversations/conversations.machine.ts',
    summary:
      'Messages, left pane, and the unread badge: one actor for the session (systemId `conversations`). Loads the ' +
      "conversations (spinner, or retry), pages on, decrypts each last message for its preview ('Message " +
      "unavailable' when it cannot), filters by 'Search conversations' on the client, refetches the first page when the " +
      'realtime actor announces a change and every 10 s while the socket is down, and archives, mutes or deletes a ' +
      'conversation for the member with a toast (archiving or deleting the open one goes back to /messages). Starts ' +
      "conversations (New Message, a profile's Message button): one at a time, the row on top, opened, its page shown; " +
      "the server's refusal or 'Failed to start conversation'. Opens a conversation a link names that the list does not " +
      "hold by fetching it ('Conversation not found').",
    machine: conversationsMachine,
  },
  {
    name: 'conversation',
    title: 'Conversation',
    source: 'src/machines/conversation/conversation.machine.ts',
    summary:
      'One open conversation: the newest messages (older pages on scroll up), decrypted in the browser, incoming ' +
      "ones marked read while open. The composer encrypts and sends (blank refused; 'Failed to send message' keeps the " +
      "text), or is disabled with why ('{name} can't receive messages yet', the server's 403). The sender edits and " +
      "deletes ('Message deleted'). The safety number of both keys, and a warning when the other member's key changed. " +
      'A send with photos or videos first has the attachments child encrypt and upload them, then seals an m2 envelope ' +
      'naming them; an edit keeps the photos a message carries.',
    machine: conversationMachine,
  },
  {
    name: 'message-attachments',
    title: 'Message attachments (composer)',
    source: 'src/machines/message-attachments/message-attachments.machine.ts',
    summary:
      "The photos and videos picked in a conversation's composer, a child of the conversation: at most four, photos up " +
      "to 10 MB and videos up to 50 MB (each refusal says why), removable before sending, each with a local preview. " +
      'Asked by the send, it thumbnails each file in the browser, encrypts file and thumbnail under fresh keys and ' +
      'uploads them; a failure keeps the files for a retry, and blobs already uploaded are offered again as they are.',
    machine: messageAttachmentsMachine,
  },
  {
    name: 'attachment-view',
    title: 'Photo or video in a message',
    source: 'src/machines/attachment-view/attachment-view.machine.ts',
    summary:
      "One photo or video of a message bubble: the thumbnail downloaded (ciphertext) and decrypted into a blob: URL " +
      "('Photo unavailable' with a retry), the whole file on click, the same way, fetched once; every URL revoked when " +
      'the bubble goes.',
    machine: attachmentViewMachine,
  },
  {
    name: 'new-message',
    title: 'New Message modal',
    source: 'src/machines/new-message/new-message.machine.ts',
    summary:
      "Messages -> New message. Without this browser's message key the modal shows the keys actor's reason. " +
      "Otherwise 'To:' searches members 500 ms after the last keystroke, from 2 characters, leaving the viewer out " +
      "('No users found' when nobody matches); picking one asks the conversation list to start the conversation.",
    machine: newMessageMachine,
  },
  {
    name: 'notifications',
    title: 'Notification count',
    source: 'src/machines/notifications/notifications.machine.ts',
    summary:
      'The unread count behind the Notifications badge: one actor for the session (systemId `notifications`). Reads ' +
      'the count once (GET /notifications?limit=1), then takes the counts the server pushes (`notification` on the ' +
      'socket, as `notifications.count`) and those the Notifications screen learns. While the socket is down it reads ' +
      'again every 10 s, and once when the socket is back. A failed read is silent.',
    machine: notificationsMachine,
  },
  {
    name: 'notification-list',
    title: 'Notifications screen',
    source: 'src/machines/notifications/notification-list.machine.ts',
    summary:
      "/notifications: the first page of the tab (All, Mentions, Unread; spinner, 'No notifications yet', or Try " +
      'again), Load more, and a refetch whenever the unread count changes while the screen is open. Opening an unread ' +
      "item marks it read at once (silent if the server refuses); Mark all as read says 'All notifications marked as " +
      "read'. Every count it learns goes to the badge.",
    machine: notificationListMachine,
  },
  {
    name: 'notification-preferences',
    title: 'Notification settings',
    source: 'src/machines/notification-preferences/notification-preferences.machine.ts',
    summary:
      'Settings -> Notifications: five toggles read from GET /notifications/preferences (or Try again). Save sends ' +
      "only the kinds that changed (PATCH) and says 'Notification settings updated'; a refusal keeps the toggles and " +
      'says why under the form.',
    machine: notificationPreferencesMachine,
  },
  {
    name: 'analytics',
    title: 'Analytics Dashboard and a post\'s analytics',
    source: 'src/machines/analytics/analytics.machine.ts',
    summary:
      'Settings -> Analytics: the Analytics Dashboard dialog, opened at once by `?tab=analytics` or later by View ' +
      'Analytics; each opening reads GET /analytics/user, /engagement and /trends together over 30 days (spinner, or ' +
      'Try again). A range (7, 30, 90 days) reads again while the last numbers stay on screen. A top or recent post ' +
      "opens that post's analytics (GET /analytics/posts/{id}); Back returns to the dashboard as it was, or reads it " +
      "again if the range changed meanwhile. An own post's card menu opens the same post view directly (no Back); a " +
      "post that is not the member's or is gone says so and offers no Retry. Nothing here writes.",
    machine: analyticsMachine,
  },
  {
    name: 'report',
    title: 'Report a post, a member or a message',
    source: 'src/machines/report/report.machine.ts',
    summary:
      "The report dialog, from a post card's menu, a member's profile or a message in a conversation: a reason from " +
      'the list (Spam, Harassment, Hate, Violence, Sexual content, Self-harm, Impersonation, Something else) and an ' +
      'optional description of at most 1,000 characters with its counter. Report checks the form first (nothing is ' +
      'sent without a reason or with a description too long), then POST /reports/<kind>; a message report carries the ' +
      "text this browser decrypted. Sent: the dialog closes with a thank-you toast. Refused: the server's words (already " +
      "reported, gone), else 'Failed to submit report', and the dialog keeps what was typed.",
    machine: reportMachine,
  },
  {
    name: 'reports',
    title: 'Report review workflow (Reports Management)',
    source: 'src/machines/reports/reports.machine.ts',
    summary:
      'The Reports Management dialog (Settings -> Reports, View Reports; `?tab=reports` opens it at once). Tabs ' +
      'Pending, Reviewed, Resolved each read GET /reports?status=...; a report is selected into the detail pane. ' +
      'Admins review it there with an optional note, and only the moves the workflow allows: pending -> reviewed ' +
      '(Under Review) or dismissed; reviewed -> resolved or dismissed; resolved and dismissed are final. Resolving a ' +
      'post report may also delete the post, which asks a confirm first. One save at a time: \'Report updated ' +
      "successfully' and the report leaves its tab, or the server's words, else 'Failed to update report'. Members get " +
      'the same dialog read-only over the reports they filed, with the status, the review note and when it was reviewed.',
    machine: reportsMachine,
  },
  {
    name: 'admin',
    title: 'Admin operations',
    source: 'src/machines/admin/admin.machine.ts',
    summary:
      'The admin panel (/admin): Fix All Stats and Migrate Keys ask a confirm first; Recalculate needs a user ID and ' +
      "Promote/Demote a username ('Please enter a user ID' / 'Please enter a username', nothing sent). One operation " +
      'runs at a time. Done: its toast (\'All user stats have been fixed!\', \'User stats recalculated!\', \'User ' +
      "{username} promoted to admin!' / 'demoted from admin!', 'Encryption keys migration completed!'), its field cleared, " +
      "a line under its section and the audit log reloaded. Failed: the server's words, else the operation's default " +
      "('Failed to fix stats', ...), the field kept.",
    machine: adminMachine,
  },
  {
    name: 'audit-log',
    title: 'Audit log (admin panel)',
    source: 'src/machines/admin/audit-log.machine.ts',
    summary:
      'The audit log at the bottom of the admin panel: GET /admin/audit-log newest first (who, what, when), Load more ' +
      'while there is a next page, Try again after a failed read. The panel starts it afresh after every finished ' +
      'operation.',
    machine: auditLogMachine,
  },
  {
    name: 'forgot-password',
    title: 'Forgot password',
    source: 'src/machines/password-reset/forgot-password.machine.ts',
    summary:
      '/forgot-password: a username or email, then the one answer the server gives for every name ("If an account ' +
      'has that username or email, a link … is on its way"); a limit or a network failure shows the reason under the ' +
      'form. "Send another link" starts again.',
    machine: forgotPasswordMachine,
  },
  {
    name: 'reset-password',
    title: 'Reset password',
    source: 'src/machines/password-reset/reset-password.machine.ts',
    summary:
      '/reset-password?token=: the link is checked; an unusable one says so. A member with a message recovery key ' +
      'types it (checked against the recovery copy and the public key before anything is sent) or says "I don\'t have ' +
      'it" and confirms losing the readable history; then the new password (and a two-factor code if on). The reset ' +
      'restores the same key pair under the new password, or makes a new one, and ends every session.',
    machine: resetPasswordMachine,
  },
  {
    name: 'recovery-key',
    title: 'Message recovery key (Settings)',
    source: 'src/machines/password-reset/recovery-key.machine.ts',
    summary:
      'Settings → Security → Message recovery key: the password, then a new random key is made, a second copy of the ' +
      'message key is wrapped under it and stored, and the key is shown once (Copy, Download .txt, "I saved my ' +
      'recovery key" then Done). With a key: Replace or Remove, both with the password.',
    machine: recoveryKeyMachine,
  },
  {
    name: 'account-deletion',
    title: 'Delete account dialog',
    source: 'src/machines/account-deletion/account-deletion.machine.ts',
    summary:
      'Settings -> Account. The dialog lists what goes and what stays and asks for the password, a code when ' +
      'two-factor sign-in is on, and the username typed; a form the rules refuse sends nothing. `deleting` derives ' +
      'the password into its secret (as a password change does) and sends POST /auth/delete-account; it cannot be ' +
      "closed meanwhile. Accepted: the toast 'Your account is being deleted' and the session ends (the server has " +
      "already revoked every token), so the app shows the sign-in screen. Refused: the dialog stays with the server's " +
      "words, else 'Failed to delete your account'.",
    machine: accountDeletionMachine,
  },
  {
    name: 'instance-pages',
    title: 'Instance pages editor (admin panel)',
    source: 'src/machines/admin/instance-pages.machine.ts',
    summary:
      'The Terms of Service and Privacy Policy editor in the admin panel: both pages load together, a tab per page ' +
      'keeps its own draft, Write or Preview, and Save sends the selected page only when its draft differs from the ' +
      'saved text, is not blank and has at most 50,000 characters. Saved or failed, the audit log reads itself again.',
    machine: instancePagesMachine,
  },
  {
    name: 'instance-page',
    title: 'Instance page (/terms, /privacy)',
    source: 'src/machines/instance-page/instance-page.machine.ts',
    summary:
      'One of the instance\'s pages as anyone reads it, signed in or not: GET /instance/pages/{slug}, then the page ' +
      '(rendered from markdown without raw HTML), or why it could not be read and Try again.',
    machine: instancePageMachine,
  },
]

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const outDir = join(root, 'docs', 'machines')

/** Mermaid ids must be plain words: the state id with its dots turned into underscores. */
const mermaidId = (id: string) => id.replace(/[^A-Za-z0-9_]/g, '_')
/** The machine's own transitions (`on` at the top level) start from this box: they apply in any state. */
const anyStateId = (machine: AnyStateMachine) => `${mermaidId(machine.id)}__any`
/** Colons and semicolons end a Mermaid label or note early. */
const mermaidText = (text: string) => text.replace(/[:;]/g, ' ')
/** A pipe would split a Markdown table cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|')

function guardText(t: TransitionInfo): string | null {
  if (t.guard) return t.guard
  return t.index > 0 ? 'otherwise' : null
}

/** `event [guard] / action, action`: what triggers it, when it applies, what it does. */
function label(t: TransitionInfo): string {
  const parts = [triggerText(t)]
  const guard = guardText(t)
  if (guard) parts.push(`[${guard}]`)
  if (t.actions.length) parts.push(`/ ${t.actions.join(', ')}`)
  if (t.reenter) parts.push('(re-enters)')
  return mermaidText(parts.join(' '))
}

/** Throws on a dangling edge rather than write a chart that lies. */
function nodeById(machine: AnyStateMachine, id: string): AnyStateNode {
  const node = id === machine.id ? machine.root : listStateNodes(machine).find((n) => n.id === id)
  if (!node) throw new Error(`No state ${id} in ${machine.id}`)
  return node
}

function renderStates(node: AnyStateNode, indent: string, lines: string[]) {
  const children = Object.values(node.states)
  if (node.initial && node.initial.target.length > 0) {
    const first = node.initial.target[0]
    if (first) lines.push(`${indent}[*] --> ${mermaidId(first.id)}`)
  }
  for (const child of children) {
    const id = mermaidId(child.id)
    if (Object.keys(child.states).length > 0) {
      lines.push(`${indent}state "${child.key}" as ${id} {`)
      renderStates(child, `${indent}  `, lines)
      lines.push(`${indent}}`)
    } else {
      lines.push(`${indent}state "${child.key}" as ${id}`)
    }
    if (child.type === 'final') lines.push(`${indent}${id} --> [*]`)
  }
}

/** Tags, entry and exit actions, invoked actors: one line per state, joined with a middle dot. */
function facts(node: AnyStateNode): string[] {
  const state = describeState(node)
  // The machine's own entry and exit run when the actor starts and stops.
  const [entered, left] = node.parent ? ['on entry', 'on exit'] : ['on start', 'on stop']
  const facts: string[] = []
  if (node.type === 'parallel' && node.parent) facts.push(`regions ${Object.keys(node.states).join(', ')} run side by side`)
  if (state.tags.length) facts.push(`tags ${state.tags.join(', ')}`)
  if (state.entry.length) facts.push(`${entered} / ${state.entry.join(', ')}`)
  if (state.exit.length) facts.push(`${left} / ${state.exit.join(', ')}`)
  for (const invoke of state.invokes) facts.push(`invokes ${invoke}`)
  return facts
}

function renderNotes(machine: AnyStateMachine, lines: string[], hasAnyState: boolean) {
  const rootFacts = facts(machine.root)
  if (rootFacts.length && hasAnyState) lines.push(`  note right of ${anyStateId(machine)} : ${mermaidText(rootFacts.join(' · '))}`)
  for (const node of listStateNodes(machine)) {
    const nodeFacts = facts(node)
    if (nodeFacts.length) lines.push(`  note right of ${mermaidId(node.id)} : ${mermaidText(nodeFacts.join(' · '))}`)
  }
}

function mermaid(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2']
  renderStates(machine.root, '  ', lines)
  const transitions = listTransitions(machine)
  // The whole machine's own transitions, actions and actors hang off one box, "(any state)", drawn only when needed.
  const hasAnyState = transitions.some((t) => t.source === machine.id) || facts(machine.root).length > 0
  if (hasAnyState) lines.push(`  state "(any state)" as ${anyStateId(machine)}`)
  for (const t of transitions) {
    const source = t.source === machine.id ? anyStateId(machine) : mermaidId(nodeById(machine, t.source).id)
    const targets = t.internal ? [source] : t.targets.map((id) => mermaidId(nodeById(machine, id).id))
    for (const target of targets) lines.push(`  ${source} --> ${target} : ${label(t)}`)
  }
  renderNotes(machine, lines, hasAnyState)
  return lines.join('\n')
}

/** A state id without the machine's own prefix; the machine itself is "(any state)". */
function shortId(machine: AnyStateMachine, id: string): string {
  return id === machine.id ? '(any state)' : id.replace(`${machine.id}.`, '')
}

function table(machine: AnyStateMachine): string {
  const rows = listTransitions(machine).map((t) => {
    const to = t.internal ? '(stays)' : t.targets.map((id) => shortId(machine, id)).join(', ')
    const trigger = triggerText(t)
    const event = trigger === t.event ? `\`${t.event}\`` : trigger
    const cells = [shortId(machine, t.source), event, guardText(t) ?? '', `${to}${t.reenter ? ' (re-enters)' : ''}`, t.actions.join(', ')]
    return `| ${cells.map(cell).join(' | ')} |`
  })
  return ['| From | Event | Guard | To | Actions |', '| --- | --- | --- | --- | --- |', ...rows].join('\n')
}

function statesTable(machine: AnyStateMachine): string {
  const rows = [machine.root, ...listStateNodes(machine)]
    .map((node) => ({ node, state: describeState(node) }))
    .filter(({ node, state }) => node !== machine.root || state.tags.length + state.entry.length + state.exit.length + state.invokes.length > 0)
    .map(({ node, state }) => {
      const name = node === machine.root ? '(the machine)' : shortId(machine, node.id)
      const cells = [name, state.tags.join(', '), state.entry.join(', '), state.exit.join(', '), state.invokes.join(', ')]
      return `| ${cells.map(cell).join(' | ')} |`
    })
  return ['| State | Tags | On entry | On exit | Invokes |', '| --- | --- | --- | --- | --- |', ...rows].join('\n')
}

/** How to read this chart: one sentence per kind of label it actually uses. */
function legend(machine: AnyStateMachine): string {
  const transitions = listTransitions(machine)
  const lines = [
    'Each arrow reads `event [guard] / actions`: the event that triggers it, in brackets the guard that must hold for it ' +
      'to apply, and after the slash the actions it runs.',
  ]
  if (transitions.some((t) => t.index > 0 && !t.guard)) {
    lines.push('`[otherwise]` applies when the guards of the arrows before it, for the same event, do not hold.')
  }
  if (transitions.some((t) => /^xstate\.(done|error)\.actor\./.test(t.event))) {
    lines.push('`xstate.done.actor.<id>` / `xstate.error.actor.<id>` are the answer (or failure) of the call the state invokes.')
  }
  if (transitions.some((t) => t.event === 'always')) lines.push('`(immediately)` is taken as soon as the state is entered.')
  if (transitions.some((t) => t.delay !== null)) lines.push('`after 10 s` is taken when the state has lasted that long.')
  if (transitions.some((t) => t.event.startsWith('xstate.done.state.'))) lines.push('`(when done)` is taken when the state reaches its final state.')
  if (transitions.some((t) => t.reenter)) lines.push('`(re-enters)` leaves the state and enters it again, running its exit and entry actions.')
  if (transitions.some((t) => t.source === machine.id)) lines.push('Arrows from `(any state)` apply whatever state the machine is in.')
  lines.push('Notes beside a state list its tags, its entry and exit actions, and the actors it invokes while active.')
  return lines.join('\n')
}

function page(spec: ChartSpec): string {
  const states = listStateNodes(spec.machine)
  return `# ${spec.title} (\`${spec.machine.id}\`)

<!-- Generated by \`npm run charts\` (docs/tools/charts.ts) from ${spec.source}. Do not edit by hand. -->

${spec.summary}

Source: [\`${spec.source}\`](${relative(outDir, join(root, spec.source))}) · ${states.length} states · ${listTransitions(spec.machine).length} transitions

\`\`\`mermaid
${mermaid(spec.machine)}
\`\`\`

${legend(spec.machine)}

## Transitions

${table(spec.machine)}

## States

${statesTable(spec.machine)}
`
}

function index(): string {
  const rows = charts.map(
    (c) =>
      `| [${c.title}](${c.name}.md) | \`${c.machine.id}\` | ${listStateNodes(c.machine).length} | ${listTransitions(c.machine).length} | [\`${c.source}\`](${relative(outDir, join(root, c.source))}) |`,
  )
  return `# State machines

<!-- Generated by \`npm run charts\` (docs/tools/charts.ts). Do not edit by hand. -->

Wren's behaviour lives in XState machines (\`src/machines\`); the screens only send events and render state. These
charts are drawn from the machine definitions themselves, so they cannot drift from the code.

| Machine | Id | States | Transitions | Source |
| --- | --- | --- | --- | --- |
${rows.join('\n')}

**Reading a chart.** Each arrow reads \`event [guard] / actions\`: the event that moves the machine, in brackets the
guard that must hold for the arrow to apply (\`[otherwise]\`: the arrows before it for the same event did not), and
after the slash the actions it runs, by name (xstate's own say what they do, e.g. \`assign(error)\`,
\`spawnChild(reactionCall)\`, \`emit(post.created)\`; code written in place shows as \`inline guard\` / \`inline action\`).
\`(immediately)\` and \`after 10 s\` arrows need no event. The note beside a state lists its tags, its entry and exit
actions and the calls it makes while active; the tables under each chart say the same in rows. To follow a machine by
hand the way its tests do, print the paths they walk as numbered steps: \`npm run paths -- feed\` (\`npm run paths\`
lists the machines).

One store (plain event-driven state, no chart): \`src/machines/feature-banner/feature-banner.store.ts\` (Home's
new-features banner, dismissed once per browser under \`feature-banner-dismissed\`). The realtime socket is a callback
actor (\`src/machines/realtime/realtime.actor.ts\`), run by the member actor.

## Testing

The tests in \`tests/machines/\` walk every chart with \`@xstate/graph\` (every simple path, plus one path through each
edge; a machine with parallel regions is walked one region at a time; machines whose context combines freely, like the
composer's draft or a feed's list, take the shortest path to every state instead of every simple path, split into
small scenarios), replay each path on a real actor whose server calls the test settles, and fail if any state or
transition listed here is never reached. Run them with \`npx vitest run --project machines\`. \`npm test\` also fails
when these pages no longer match the machines (\`npm run check:charts\`); \`npm run charts\` rewrites them.

## Inspecting live machines

In a development build (\`npm run dev\` / \`vite\`), press **Alt+Shift+I** to toggle the inspector: every live actor
(the session, the login/register forms, the password dialog, profiles, follow buttons, lists and settings, the post
cache, the home feed, composers, the post page and the tour), its current state and its recent events, with
passwords and tokens masked. (Ctrl+Shift+I is left to the browser's devtools.) Production builds do not contain it.
`
}

/** The first line after the heading of every page this tool writes: how `--check` and a rewrite tell them apart. */
const GENERATED = '<!-- Generated by `npm run charts`'

/** Every page, by file name under docs/machines: one per machine, and the index. */
function render(): Map<string, string> {
  const names = new Set<string>()
  for (const spec of charts) {
    if (names.has(spec.name) || spec.name === 'README') throw new Error(`Two charts would be written to ${spec.name}.md`)
    names.add(spec.name)
    if (!existsSync(join(root, spec.source))) throw new Error(`${spec.name}: no file ${spec.source}`)
  }
  const files = new Map<string, string>()
  for (const spec of charts) files.set(`${spec.name}.md`, page(spec))
  files.set('README.md', index())
  return files
}

/** Pages on disk this tool wrote once but would not write now (a machine taken off the list). */
function leftovers(files: Map<string, string>): string[] {
  if (!existsSync(outDir)) return []
  return readdirSync(outDir)
    .filter((file) => file.endsWith('.md') && !files.has(file))
    .filter((file) => readFileSync(join(outDir, file), 'utf8').includes(GENERATED))
    .sort()
}

function check(files: Map<string, string>): number {
  const problems: string[] = []
  for (const [file, text] of files) {
    const path = join(outDir, file)
    if (!existsSync(path)) problems.push(`  missing  ${relative(root, path)}`)
    else if (readFileSync(path, 'utf8') !== text) problems.push(`  stale    ${relative(root, path)}`)
  }
  for (const file of leftovers(files)) problems.push(`  extra    ${relative(root, join(outDir, file))} (no machine in docs/tools/charts.ts)`)
  if (problems.length === 0) {
    console.log(`${relative(root, outDir)}/ is fresh (${charts.length} charts and the index)`)
    return 0
  }
  console.error(`${relative(root, outDir)}/ does not match the machines:\n${problems.join('\n')}`)
  console.error('Run `npm run charts` and commit docs/machines.')
  return 1
}

function write(files: Map<string, string>) {
  mkdirSync(outDir, { recursive: true })
  for (const [file, text] of files) writeFileSync(join(outDir, file), text)
  for (const file of leftovers(files)) {
    rmSync(join(outDir, file))
    console.log(`Removed ${relative(root, join(outDir, file))} (no machine in docs/tools/charts.ts)`)
  }
  console.log(`Wrote ${charts.length} charts and the index to ${relative(root, outDir)}/`)
}

const args = process.argv.slice(2)
const unknown = args.filter((arg) => arg !== '--check')
if (unknown.length) {
  console.error(`Unknown argument ${unknown.join(' ')}. Usage: npm run charts [-- --check]`)
  process.exit(1)
}
const files = render()
if (args.includes('--check')) process.exit(check(files))
write(files)
