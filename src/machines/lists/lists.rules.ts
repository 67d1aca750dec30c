import type { List } from '../../api/lists.calls'

// Lists (docs/product.md, "Lists"): who may do what to a list, and every text the Manage Lists dialog, the list page
// and a profile's "Add to list" say. Used by the machines' guards and by the views, so both agree. The list form's
// rules are the collection form's (lib/named-group.rules.ts).

export const LIST_CREATED = 'List created successfully'
export const LIST_UPDATED = 'List updated successfully'
export const LIST_DELETED = 'List deleted successfully'
export const LIST_CREATE_FAILED = 'Failed to create list'
export const LIST_UPDATE_FAILED = 'Failed to update list'
export const LIST_DELETE_FAILED = 'Failed to delete list'
export const DELETE_CONFIRM = 'Are you sure you want to delete this list?'
export const MEMBER_ADDED = 'Added to list'
export const MEMBER_REMOVED = 'Removed from list'
export const MEMBER_ADD_FAILED = 'Failed to add member'
export const MEMBER_REMOVE_FAILED = 'Failed to remove member'
export const SUBSCRIBED = 'Subscribed to list'
export const UNSUBSCRIBED = 'Unsubscribed from list'
export const SUBSCRIBE_FAILED = 'Failed to subscribe'
export const UNSUBSCRIBE_FAILED = 'Failed to unsubscribe'
export const LISTS_LOAD_FAILED = 'Could not load your lists.'
export const MEMBERS_LOAD_FAILED = 'Could not load the members of this list.'
export const LIST_LOAD_FAILED = 'Could not load this list.'
export const LIST_NOT_FOUND = 'List not found'

/** The member search of the members panel, as New Message's: 500 ms after the last keystroke, 2+ chars. */
export { isSearchable, SEARCH_DEBOUNCE_MS, USER_SEARCH_FAILED } from '../lib/user-search'

/** Only the owner edits, deletes and manages the members of a list. */
export const isOwnList = (list: Pick<List, 'owner'>, viewerId: string) => list.owner.id === viewerId

/** Someone else's list can be subscribed to (a private one never reaches them). */
export const canSubscribe = (list: Pick<List, 'owner'>, viewerId: string) => !isOwnList(list, viewerId)

/** "3 members", "1 member". */
export const countLabel = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** Where a list's page is. */
export const listPath = (id: string) => `/lists/${encodeURIComponent(id)}`
