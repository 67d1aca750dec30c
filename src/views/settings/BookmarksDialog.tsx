import { useSelector } from '@xstate/react'
import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { Bookmark, Collection } from '../../api/bookmarks.calls'
import type { BookmarksRef } from '../../machines/bookmarks/bookmarks.machine'
import { BOOKMARK_TABS, type BookmarkTab } from '../../machines/bookmarks/bookmarks.rules'
import {
  selectBookmarks,
  selectBusy,
  selectCollectionBookmarks,
  selectCollections,
  selectEditing,
  selectFailed,
  selectForm,
  selectFiling,
  selectHasMore,
  selectLoading,
  selectLoadingMore,
  selectOpenCollection,
  selectOpeningCollection,
  selectTab,
} from '../../machines/bookmarks/bookmarks.selectors'
import { PostCard } from '../post/PostCard'
import { Icon } from '../ui/Icon'
import { EmptyNote, FirstPageStatus, LoadMoreButton } from '../ui/ListStates'
import { Dialog } from '../ui/Overlay'
import { Spinner } from '../ui/Spinner'
import { SubviewHeader } from '../ui/SubviewHeader'
import { Tabs } from '../ui/Tabs'
import { NamedGroupForm } from './NamedGroupForm'

// The Bookmarks dialog (spec: "tabs Bookmarks and Collections; New Collection button on Collections tab"; docs/product.md,
// "Bookmarks"). Saved posts show as post cards (their like, repost and bookmark buttons work as everywhere), each
// with "Add to collection" and "Remove". Everything it shows and allows comes from the bookmarks actor.

const TAB_LABELS: Record<BookmarkTab, string> = { bookmarks: 'Bookmarks', collections: 'Collections' }

const panel = css({ display: 'flex', flexDirection: 'column', gap: '3', minH: '220px', mt: '4' })
const empty = css({ fontSize: 'sm', color: 'fg.muted', py: '6', textAlign: 'center' })
const savedItem = css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'xl', overflow: 'hidden', bg: 'bg.surface' })
const itemActions = css({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '2',
  px: '4',
  py: '2',
  bg: 'bg.subtle',
  borderTopWidth: '1px',
  borderColor: 'border',
})

export function BookmarksDialog({ actor, onClose }: { actor: BookmarksRef; onClose: () => void }) {
  const tab = useSelector(actor, selectTab)
  const loading = useSelector(actor, selectLoading)
  const failed = useSelector(actor, selectFailed)
  return (
    <Dialog open onClose={onClose} title="Bookmarks" description="Posts you saved, and the collections you sort them into. Only you see them." size="lg">
      <Tabs
        label="Bookmarks"
        idPrefix="bookmarks"
        tabs={BOOKMARK_TABS}
        labels={TAB_LABELS}
        selected={tab}
        onSelect={(next) => actor.send({ type: 'bookmarks.tab', tab: next })}
        look="dialog"
        panelClassName={panel}
      >
        <FirstPageStatus
          loading={loading}
          failed={failed}
          loadingLabel="Loading bookmarks"
          failedText="Could not load your bookmarks."
          onRetry={() => actor.send({ type: 'bookmarks.retry' })}
        >
          {tab === 'bookmarks' ? <SavedPosts actor={actor} /> : <Collections actor={actor} />}
        </FirstPageStatus>
      </Tabs>
    </Dialog>
  )
}

function LoadMore({ actor }: { actor: BookmarksRef }) {
  const hasMore = useSelector(actor, selectHasMore)
  const busy = useSelector(actor, selectBusy)
  const loadingMore = useSelector(actor, selectLoadingMore)
  if (!hasMore) return null
  return <LoadMoreButton loadingMore={loadingMore} disabled={busy} onMore={() => actor.send({ type: 'bookmarks.more' })} align="center" />
}

function SavedPosts({ actor }: { actor: BookmarksRef }) {
  const bookmarks = useSelector(actor, selectBookmarks)
  const busy = useSelector(actor, selectBusy)
  const filing = useSelector(actor, selectFiling)
  const collections = useSelector(actor, selectCollections)
  if (bookmarks.length === 0) {
    return <EmptyNote title="No bookmarks yet">Save a post with its bookmark button to find it here.</EmptyNote>
  }
  return (
    <>
      <ul aria-label="Saved posts" className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        {bookmarks.map((bookmark) => (
          <li key={bookmark.id} className={savedItem}>
            <PostCard id={bookmark.post.id} />
            <div className={itemActions}>
              {filing?.id === bookmark.id ? (
                <CollectionPicker actor={actor} bookmark={bookmark} collections={collections} />
              ) : (
                <>
                  <button
                    type="button"
                    className={button({ variant: 'outline', size: 'sm' })}
                    disabled={busy}
                    onClick={() => actor.send({ type: 'file.start', bookmarkId: bookmark.id })}
                  >
                    <Icon name="bookmark" size={16} />
                    Add to collection
                  </button>
                  <button
                    type="button"
                    className={button({ variant: 'ghost', size: 'sm' })}
                    disabled={busy}
                    onClick={() => actor.send({ type: 'bookmark.remove', bookmarkId: bookmark.id })}
                    aria-label={`Remove bookmark of @${bookmark.post.author.username}'s post`}
                  >
                    Remove
                  </button>
                  {bookmark.collectionIds.length > 0 ? (
                    <span className={css({ fontSize: 'xs', color: 'fg.muted', ml: 'auto' })}>
                      In {collectionNames(collections, bookmark.collectionIds)}
                    </span>
                  ) : null}
                </>
              )}
            </div>
          </li>
        ))}
      </ul>
      <LoadMore actor={actor} />
    </>
  )
}

function collectionNames(collections: ReadonlyArray<Collection>, ids: ReadonlyArray<string>): string {
  const names = ids.map((id) => collections.find((c) => c.id === id)?.name).filter((n): n is string => n !== undefined)
  return names.length > 0 ? names.join(', ') : `${ids.length} collection${ids.length === 1 ? '' : 's'}`
}

function CollectionPicker({ actor, bookmark, collections }: { actor: BookmarksRef; bookmark: Bookmark; collections: ReadonlyArray<Collection> }) {
  return (
    <div role="group" aria-label="Add to collection" className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: '2', w: '100%' })}>
      <span className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>Add to:</span>
      {collections.length === 0 ? (
        <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>No collections yet: make one on the Collections tab.</span>
      ) : (
        collections.map((c) => {
          const already = bookmark.collectionIds.includes(c.id)
          return (
            <button
              key={c.id}
              type="button"
              className={button({ variant: already ? 'ghost' : 'outline', size: 'sm' })}
              disabled={already}
              aria-pressed={already}
              onClick={() => actor.send({ type: 'file.choose', collectionId: c.id })}
            >
              {already ? <Icon name="check" size={14} /> : null}
              {c.name}
            </button>
          )
        })
      )}
      <button type="button" className={cx(button({ variant: 'ghost', size: 'sm' }), css({ ml: 'auto' }))} onClick={() => actor.send({ type: 'file.cancel' })}>
        Cancel
      </button>
    </div>
  )
}

function Collections({ actor }: { actor: BookmarksRef }) {
  const open = useSelector(actor, selectOpenCollection)
  const editing = useSelector(actor, selectEditing)
  if (editing) return <CollectionForm actor={actor} />
  if (open) return <OpenCollection actor={actor} collection={open} />
  return <CollectionList actor={actor} />
}

function CollectionList({ actor }: { actor: BookmarksRef }) {
  const collections = useSelector(actor, selectCollections)
  const busy = useSelector(actor, selectBusy)
  return (
    <>
      <button type="button" className={cx(button({ size: 'sm' }), css({ alignSelf: 'flex-start' }))} disabled={busy} onClick={() => actor.send({ type: 'collection.new' })}>
        <Icon name="compose" size={16} />
        New Collection
      </button>
      {collections.length === 0 ? (
        <EmptyNote title="No collections yet">Make one, then add saved posts to it from the Bookmarks tab.</EmptyNote>
      ) : (
        <ul aria-label="Collections" className={css({ display: 'flex', flexDirection: 'column' })}>
          {collections.map((c) => (
            <li key={c.id} className={css({ display: 'flex', alignItems: 'center', gap: '3', py: '3', '&:not(:first-child)': { borderTopWidth: '1px', borderColor: 'border' } })}>
              <span className={css({ display: 'grid', placeItems: 'center', w: '10', h: '10', borderRadius: 'lg', bg: 'accent.subtle', color: 'accent.text', flexShrink: 0 })}>
                <Icon name="bookmark" size={18} />
              </span>
              <div className={css({ flex: 1, minW: 0 })}>
                <p className={css({ fontWeight: 'semibold', truncate: true })}>
                  {c.name}
                  {c.isPrivate ? <span className={css({ ml: '2', fontSize: 'xs', color: 'fg.muted', fontWeight: 'medium' })}>Private</span> : null}
                </p>
                <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })}>
                  {c.postCount} {c.postCount === 1 ? 'post' : 'posts'}
                  {c.description ? ` · ${c.description}` : ''}
                </p>
              </div>
              <button type="button" className={button({ variant: 'outline', size: 'sm' })} disabled={busy} onClick={() => actor.send({ type: 'collection.open', id: c.id })} aria-label={`Open ${c.name}`}>
                Open
              </button>
              <button type="button" className={button({ variant: 'ghost', size: 'sm' })} disabled={busy} onClick={() => actor.send({ type: 'collection.edit', id: c.id })} aria-label={`Edit ${c.name}`}>
                Edit
              </button>
            </li>
          ))}
        </ul>
      )}
      <LoadMore actor={actor} />
    </>
  )
}

function OpenCollection({ actor, collection }: { actor: BookmarksRef; collection: Collection }) {
  const entries = useSelector(actor, selectCollectionBookmarks)
  const opening = useSelector(actor, selectOpeningCollection)
  const busy = useSelector(actor, selectBusy)
  return (
    <>
      <SubviewHeader
        backLabel="All collections"
        onBack={() => actor.send({ type: 'collection.back' })}
        backDisabled={busy}
        title={collection.name}
        subtitle={
          <>
            {collection.postCount} {collection.postCount === 1 ? 'post' : 'posts'}
            {collection.description ? ` · ${collection.description}` : ''}
          </>
        }
      />
      {opening ? (
        <div className={css({ display: 'grid', placeItems: 'center', py: '8' })}>
          <Spinner label="Loading collection" />
        </div>
      ) : entries.length === 0 ? (
        <p className={empty}>Nothing here yet. Add saved posts from the Bookmarks tab.</p>
      ) : (
        <ul aria-label={`Posts in ${collection.name}`} className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
          {entries.map((bookmark) => (
            <li key={bookmark.id} className={savedItem}>
              <PostCard id={bookmark.post.id} />
              <div className={itemActions}>
                <button
                  type="button"
                  className={button({ variant: 'outline', size: 'sm' })}
                  disabled={busy}
                  onClick={() => actor.send({ type: 'collection.unfile', postId: bookmark.post.id })}
                >
                  Remove from collection
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <LoadMore actor={actor} />
    </>
  )
}

function CollectionForm({ actor }: { actor: BookmarksRef }) {
  const form = useSelector(actor, selectForm)
  return form ? <NamedGroupForm form={form} noun="collection" privateLabel="Private collection" /> : null
}
