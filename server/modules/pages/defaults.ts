import type { InstancePageSlug } from '../../db/schema-pages'

// The texts served while no admin has written the instance's own (docs/product.md, "Instance pages"). Plain words
// for a small self-hosted community; what they say the server stores is what docs/security.md says it stores, so a
// change there is a change here.

export const PAGE_TITLES: Record<InstancePageSlug, string> = {
  terms: 'Terms of Service',
  privacy: 'Privacy Policy',
}

const TERMS = `> **Note to the operator:** this is Wren's default text. Edit it in the Admin Panel (Instance pages) so it
> names who runs this instance, how to reach them, and the rules your community agrees on.

## Who runs this

This instance of Wren is run by its operator for a community of members. It is not run by the makers of the Wren
software. The operator decides who may join, what is allowed here and when the service changes or ends.

## Your account

- You need an account to post, follow and send messages. Keep your password to yourself: nobody, not even the
  operator, can recover your direct messages without it.
- You are responsible for what is posted from your account.
- You may stop using the service at any time. The operator may suspend or remove accounts that break these rules.

## What you post

- You keep the rights to what you post. By posting, you let this instance store it and show it to the people you
  chose (public posts to anyone who can reach the instance, others to your followers or the people you mention).
- Do not post anything illegal, harassment, threats, spam, or someone else's private information.
- Do not post what you have no right to share, such as other people's photos or work without their consent.
- Members can report posts, messages and accounts. Administrators read reports and may remove content or accounts.

## Direct messages

Direct messages are end-to-end encrypted in your browser: the server stores and relays them without being able to
read them. If you report a message, the text of that one message is sent to the administrators with your report.

## No guarantees

The service is offered as it is, by people who run it for their community. It may be unavailable at times, and data
may be lost. Keep your own copies of anything that matters to you.

## Changes

The operator may change these terms. The date of the last change is shown at the top of this page.
`

const PRIVACY = `> **Note to the operator:** this is Wren's default text. Edit it in the Admin Panel (Instance pages) so it
> names who runs this instance, where it is hosted, how long backups are kept and how members can contact you.

## What this instance stores

- **Your account:** username, email address, display name, and what you add to your profile (bio, profile
  picture, banner). Your browser sends the server a secret derived from your password, not the password itself,
  and the server keeps only a one-way hash of that secret. With two-factor sign-in on, it also keeps its secret.
- **What you post and do:** posts, replies, likes, reposts, follows, bookmarks, lists, mutes, blocks, reports and
  notification settings. Public posts are visible to anyone who can reach this instance.
- **Photos and videos you upload:** stored without their hidden metadata (location, camera, dates are removed).
- **Your sessions:** for each sign-in, the browser and system it reported, the IP address at sign-in and at the last
  use, and when it was used. You can see and end your sessions in Settings.
- **Counts:** how often your posts were viewed, liked, replied to and reposted.

## Direct messages

Direct messages and their photos and videos are **end-to-end encrypted** in your browser. The server stores them
only in encrypted form and cannot read them. It does see who writes to whom, when, and how long each message is.
Your private key is stored only locked with your password, which the server never receives. If you report a
message, its text is sent to the administrators with your report: that is the only message text the server holds.

## Who can see your data

- Other members see what you share with them, according to your privacy settings.
- The operator and the administrators of this instance can see what the server stores (not your direct messages).
- Nothing is sold or shared with advertisers, and this instance loads no third-party trackers.

## Keeping and deleting

Data is kept while your account exists. Backups may keep copies for a while after that; ask the operator how long.

## Contact

Questions about your data go to the operator of this instance.
`

export const DEFAULT_PAGES: Record<InstancePageSlug, string> = { terms: TERMS, privacy: PRIVACY }
