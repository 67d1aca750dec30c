import { useEffect } from 'react'
import type { ActorRefFrom } from 'xstate'
import { useSelector } from '@xstate/react'
import { Link, useSearchParams } from 'wouter'
import { css, cx } from 'styled-system/css'
import { button, input } from 'styled-system/recipes'
import { blockedMachine } from '../../machines/blocked/blocked.machine'
import { mutesMachine } from '../../machines/mutes/mutes.machine'
import { changePasswordMachine } from '../../machines/change-password/change-password.machine'
import { twoFactorMachine, type TwoFactorMachine } from '../../machines/two-factor/two-factor.machine'
import { profileSettingsMachine, type ProfileSettingsMachine } from '../../machines/profile-settings/profile-settings.machine'
import { settingsPageMachine, type SettingsPageRef } from '../../machines/settings-page/settings-page.machine'
import type { DialogId } from '../../machines/settings-page/settings-page.rules'
import { selectBookmarksActor, selectDialog, selectSection } from '../../machines/settings-page/settings-page.selectors'
import { ScreenActor, usePosts, useScreenActor, useSession } from '../actors'
import { BookmarksDialog } from './BookmarksDialog'
import { DialogSection } from './DialogSection'
import { AnalyticsDashboardDialog } from './dialogs/AnalyticsDashboardDialog'
import { ManageListsDialog } from './dialogs/ManageListsDialog'
import { ReportsManagementDialog } from './dialogs/ReportsManagementDialog'
import { Icon } from '../ui/Icon'
import { PageHeader } from '../ui/PageHeader'
import { AppearanceSection } from './AppearanceSection'
import { BlockedSection } from './BlockedSection'
import { ChangePasswordDialog } from './ChangePasswordDialog'
import { MutesSection } from './MutesSection'
import { NotificationsSection } from './NotificationsSection'
import { PrivacySection } from './PrivacySection'
import { ProfileSection } from './ProfileSection'
import { findSection, settingsSections, type SettingsSection } from './sections'
import { SecuritySection } from './SecuritySection'
import { AccountSection } from './AccountSection'
import { TwoFactorDialog } from './TwoFactorDialog'

const menuLink = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '3',
  py: '2',
  borderRadius: 'lg',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  _hover: { bg: 'bg.subtle', color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '-2px' },
  '&[aria-current=page]': { bg: 'accent.subtle', color: 'accent.text', fontWeight: 'semibold' },
})

function SectionBody({
  section,
  onChangePassword,
  onTwoFactor,
  profileSettings,
  onOpenDialog,
}: {
  section: SettingsSection
  onChangePassword: () => void
  onTwoFactor: (enabled: boolean) => void
  profileSettings: ActorRefFrom<ProfileSettingsMachine>
  onOpenDialog: (dialog: DialogId) => void
}) {
  switch (section.id) {
    case 'lists':
      return (
        <DialogSection
          text="Group people into lists, public or private, and read each list as its own timeline."
          action="Manage Lists"
          icon="list"
          onOpen={() => onOpenDialog('lists')}
        />
      )
    case 'bookmarks':
      return (
        <DialogSection
          heading="Bookmarks & Collections"
          text="Posts you saved with the bookmark button, and the collections you sort them into. Only you see them."
          action="Manage Bookmarks"
          icon="bookmark"
          onOpen={() => onOpenDialog('bookmarks')}
        />
      )
    case 'reports':
      return (
        <DialogSection
          text="Reports of members, posts and messages, and where their review stands."
          action="View Reports"
          icon="flag"
          onOpen={() => onOpenDialog('reports')}
        />
      )
    case 'analytics':
      return (
        <DialogSection
          text="How your posts do: totals, your top posts and daily trends over 7, 30 or 90 days."
          action="View Analytics"
          icon="chart"
          onOpen={() => onOpenDialog('analytics')}
        />
      )
    case 'profile':
      return <ProfileSection actor={profileSettings} onChangePassword={onChangePassword} />
    case 'privacy':
      return <PrivacySection actor={profileSettings} />
    case 'security':
      return <SecuritySection onChangePassword={onChangePassword} onTwoFactor={onTwoFactor} />
    case 'account':
      return <AccountSection />
    case 'appearance':
      return <AppearanceSection />
    case 'blocked':
      // Opened with the section, so GET /blocks runs only while it shows (and again each time it opens).
      return <ScreenActor logic={blockedMachine}>{(actor) => <BlockedSection actor={actor} />}</ScreenActor>
    case 'mutes':
      // The section shows only under `?tab=mutes`, which opens the dialog at once (docs/product.md, "Settings").
      return <ScreenActor logic={mutesMachine} input={{ open: true }}>{(actor) => <MutesSection actor={actor} />}</ScreenActor>
    case 'notifications':
      return <NotificationsSection />
  }
}

/** The page's own dialogs, one component per dialog id (src/views/settings/dialogs/ and BookmarksDialog). */
function PageDialogs({ page }: { page: SettingsPageRef }) {
  const dialog = useSelector(page, selectDialog)
  const bookmarks = useSelector(page, selectBookmarksActor)
  const close = () => page.send({ type: 'settings.dialog.close' })
  switch (dialog) {
    case 'lists':
      return <ManageListsDialog onClose={close} />
    case 'bookmarks':
      return bookmarks ? <BookmarksDialog actor={bookmarks} onClose={close} /> : null
    case 'reports':
      return <ReportsManagementDialog onClose={close} />
    case 'analytics':
      return <AnalyticsDashboardDialog onClose={close} />
    case null:
      return null
  }
}

export function SettingsScreen() {
  const [params, setParams] = useSearchParams()
  const tab = params.get('tab')
  const session = useSession()
  const page = useScreenActor(settingsPageMachine, { tab, posts: usePosts() })
  const password = useScreenActor(changePasswordMachine)
  const twoFactor = useScreenActor(twoFactorMachine)
  // Lives with the page, not the section: a save still finishes (and says so) when the member switches sections.
  const profileSettings = useScreenActor(profileSettingsMachine, { session })
  // The address names the section (and opens its dialog): the page actor hears every change of `?tab=`.
  useEffect(() => {
    page?.send({ type: 'settings.tab', tab })
  }, [page, tab])
  if (!password || !twoFactor || !profileSettings || !page) return null
  return (
    <SettingsPage
      page={page}
      password={password}
      twoFactor={twoFactor}
      profileSettings={profileSettings}
      setTab={(id) => setParams({ tab: id })}
    />
  )
}

function SettingsPage({
  page,
  password,
  twoFactor,
  profileSettings,
  setTab,
}: {
  page: SettingsPageRef
  password: ActorRefFrom<typeof changePasswordMachine>
  twoFactor: ActorRefFrom<TwoFactorMachine>
  profileSettings: ActorRefFrom<ProfileSettingsMachine>
  setTab: (id: string) => void
}) {
  const section = findSection(useSelector(page, selectSection))
  const showSection = setTab
  // The top button opens the Security section and the password dialog (docs/product.md, "Settings").
  const openPasswordDialog = () => {
    if (section.id !== 'security') showSection('security')
    password.send({ type: 'password.open' })
  }

  return (
    <>
      <PageHeader
        title="Settings"
        actions={
          <button type="button" className={button({ variant: 'outline', size: 'sm' })} onClick={openPasswordDialog}>
            <Icon name="key" />
            Change Password
          </button>
        }
      />
      <div className={css({ display: 'flex', flexDirection: { base: 'column', md: 'row' }, gap: { base: '4', md: '6' }, p: '4' })}>
        <nav aria-label="Settings sections" className={css({ display: { base: 'none', md: 'block' }, w: '200px', flexShrink: 0 })}>
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: '0.5', position: 'sticky', top: '18' })}>
            {settingsSections.map((s) => (
              <li key={s.id}>
                <Link href={`/settings?tab=${s.id}`} aria-current={s.id === section.id ? 'page' : undefined} className={menuLink}>
                  <Icon name={s.icon} size={18} />
                  {s.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className={css({ display: { base: 'flex', md: 'none' }, flexDirection: 'column', gap: '1.5' })}>
          <label htmlFor="settings-section" className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
            Section
          </label>
          <select
            id="settings-section"
            className={cx(input(), css({ appearance: 'auto' }))}
            value={section.id}
            onChange={(event) => showSection(event.target.value)}
          >
            {settingsSections.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <section aria-labelledby="settings-section-title" className={css({ flex: 1, minW: 0 })}>
          <h2 id="settings-section-title" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
            {section.label}
          </h2>
          <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '2' })}>{section.description}</p>
          <SectionBody
            section={section}
            onChangePassword={() => password.send({ type: 'password.open' })}
            onTwoFactor={(enabled) => twoFactor.send({ type: 'twoFactor.open', enabled })}
            profileSettings={profileSettings}
            onOpenDialog={(dialog) => page.send({ type: 'settings.dialog.open', dialog })}
          />
        </section>
      </div>
      <ChangePasswordDialog actor={password} />
      <TwoFactorDialog actor={twoFactor} />
      <PageDialogs page={page} />
    </>
  )
}
