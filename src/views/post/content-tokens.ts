// Where a post's mentions and hashtags lead. The text itself is split by the shared scanner in src/api/contract/post-text.ts.

export const profileHref = (username: string) => `/profile/${encodeURIComponent(username)}`
export const hashtagHref = (tag: string) => `/search?q=${encodeURIComponent(`#${tag}`)}`
