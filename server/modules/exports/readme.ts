/** README.txt of an archive: what each file holds, in the member's words (docs/product.md, "Exporting your data"). */
export function README(instance: string, username: string, madeAt: Date): string {
  return `Your data from ${instance}
${'='.repeat(`Your data from ${instance}`.length)}

The archive of @${username}, made ${madeAt.toUTCString()}.
Every .json file is UTF-8 JSON; times are ISO 8601 in UTC. Members are named by their username.

README.txt               This file.
profile.json             Your profile and settings (username, email, display name, bio, privacy and notification
                         settings). Never your password or keys.
posts.json               Your posts, oldest first: text, visibility, content warning, counts, and their media files.
replies.json             Your replies, oldest first, with the post they answer (reply_to) and its author.
media/                   The photos and videos of your posts and replies; posts.json and replies.json name each
                         file ("file": "media/...").
likes.json               Posts you liked: the post's id, its author and when.
reposts.json             Posts you reposted: the post's id, its author and when.
followers.json           Who follows you, and since when.
following.json           Whom you follow, and since when.
lists.json               Your lists (private ones too) with their members.
list-subscriptions.json  Other members' lists you follow.
bookmarks.json           Your bookmarks: the post's id, its author, when, and the collections you filed it in.
collections.json         Your bookmark collections.
mutes/users.json         Members you muted (and the reason you gave).
mutes/keywords.json      Keywords you muted.
mutes/domains.json       Domains you muted.
blocks/users.json        Members you blocked.
blocks/keywords.json     Keywords you blocked.
blocks/domains.json      Domains you blocked.
messages/                Your conversations, one file each, added by your browser when you downloaded this
                         archive: messages are end-to-end encrypted and the server cannot read them. If this folder
                         is missing, your message keys were not available in the browser you used; download again
                         from a browser where you are signed in with your password.

Likes, reposts and bookmarks name other members' posts by id only: those posts are theirs, and some may no longer be
visible to you.
`
}
