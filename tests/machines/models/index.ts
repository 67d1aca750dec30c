import type { MachineModel } from '../support/walks'
import { analyticsModel } from './analytics.model'
import { adminModel } from './admin.model'
import { appModel } from './app.model'
import { auditLogModel } from './audit-log.model'
import { blockModel } from './block.model'
import { blockedModel } from './blocked.model'
import { bookmarksModel } from './bookmarks.model'
import { listsModel } from './lists.model'
import { listPageModel } from './list-page.model'
import { addToListModel } from './add-to-list.model'
import { changePasswordModel } from './change-password.model'
import { composerModel } from './composer.model'
import { conversationModel } from './conversation.model'
import { conversationsModel } from './conversations.model'
import { detachQuoteModel } from './detach-quote.model'
import { attachmentViewModel } from './attachment-view.model'
import { messageAttachmentsModel } from './message-attachments.model'
import { namedGroupFormModel } from './named-group-form.model'
import { loginModel, registerModel } from './credentials.model'
import { discoverModel } from './discover.model'
import { draftsModel } from './drafts.model'
import { feedModel } from './feed.model'
import { followListModel } from './follow-list.model'
import { followModel } from './follow.model'
import { keysModel } from './keys.model'
import { memberModel } from './member.model'
import { muteModel } from './mute.model'
import { newMessageModel } from './new-message.model'
import { notificationListModel } from './notification-list.model'
import { notificationPreferencesModel } from './notification-preferences.model'
import { notificationsModel } from './notifications.model'
import { muteListsModel, mutesModel } from './mutes.model'
import { followRequestsModel } from './follow-requests.model'
import { postPageModel } from './post-page.model'
import { postsModel } from './posts.model'
import { postHistoryModel } from './post-history.model'
import { pollModel } from './poll.model'
import { profileSettingsModel } from './profile-settings.model'
import { profileModel } from './profile.model'
import { reportModel } from './report.model'
import { reportsModel } from './reports.model'
import { searchModel } from './search.model'
import { settingsPageModel } from './settings-page.model'
import { shareModel } from './share.model'
import { sessionModel } from './session.model'
import { sessionsModel } from './sessions.model'
import { exportModel } from './export.model'
import { themeModel } from './theme.model'
import { toastsModel } from './toasts.model'
import { tourModel } from './tour.model'
import { twoFactorModel } from './two-factor.model'
import { forgotPasswordModel, recoveryKeyModel, resetPasswordModel } from './password-reset.model'
import { emailModel, verifyEmailModel } from './email.model'
import { accountDeletionModel } from './account-deletion.model'
import { instancePageModel } from './instance-page.model'
import { instancePagesModel } from './instance-pages.model'

// Every machine model the tests walk, for `npm run paths -- <name>` (docs/tools/paths.ts).
//
// Adding a machine's model test: put the model in ./<name>.model.ts (the machine, its walks, each walk's `modelPaths`
// options: events, labels, serializeState, input) as `export const <name>Model = { ... } satisfies MachineModel`,
// have the test walk it with `describeWalks(name, model, test)` (support/model.ts; so the test and `npm run paths` walk
// the same paths), and add it to this list (tests/machines/every-machine-modelled.test.ts fails for a machine of
// src/machines missing here, and for a machine such a machine can spawn or invoke).
// Its name is the name of its chart in docs/machines.

export const models: ReadonlyArray<MachineModel> = [
  appModel,
  memberModel,
  themeModel,
  toastsModel,
  sessionModel,
  sessionsModel,
  exportModel,
  draftsModel,
  loginModel,
  registerModel,
  changePasswordModel,
  twoFactorModel,
  emailModel,
  verifyEmailModel,
  keysModel,
  profileModel,
  followModel,
  blockModel,
  followListModel,
  profileSettingsModel,
  blockedModel,
  muteModel,
  detachQuoteModel,
  mutesModel,
  muteListsModel,
  bookmarksModel,
  listsModel,
  namedGroupFormModel,
  listPageModel,
  addToListModel,
  settingsPageModel,
  followRequestsModel,
  composerModel,
  postsModel,
  postHistoryModel,
  feedModel,
  searchModel,
  discoverModel,
  shareModel,
  pollModel,
  postPageModel,
  tourModel,
  conversationsModel,
  conversationModel,
  messageAttachmentsModel,
  attachmentViewModel,
  newMessageModel,
  notificationsModel,
  notificationListModel,
  notificationPreferencesModel,
  analyticsModel,
  reportModel,
  reportsModel,
  adminModel,
  auditLogModel,
  forgotPasswordModel,
  resetPasswordModel,
  recoveryKeyModel,
  accountDeletionModel,
  instancePageModel,
  instancePagesModel,
]
