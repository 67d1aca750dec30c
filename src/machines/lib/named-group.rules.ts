import { LIMITS } from '../../api/contract/limits'

// List and collection: the Manage Lists form and the collection form share one rule set, checked
// before sending (the server checks the same: server/lib/named-group.ts).

export const NAME_REQUIRED = 'Name is required'
export const NAME_TOO_LONG = `Name must be at most ${LIMITS.listNameMax} characters`
export const DESCRIPTION_TOO_LONG = `Description must be at most ${LIMITS.listDescriptionMax} characters`

/** What a list or collection form holds as typed. */
export interface GroupDraft {
  name: string
  description: string
  isPrivate: boolean
}

export const emptyDraft: GroupDraft = { name: '', description: '', isPrivate: false }

export type CheckedDraft = { ok: true; value: GroupDraft } | { ok: false; message: string }

/** The draft as it will be sent (trimmed), or the first thing wrong with it. Counted in characters (code points). */
export function checkGroupDraft(draft: GroupDraft): CheckedDraft {
  const name = draft.name.trim()
  const description = draft.description.trim()
  if (name === '') return { ok: false, message: NAME_REQUIRED }
  if ([...name].length > LIMITS.listNameMax) return { ok: false, message: NAME_TOO_LONG }
  if ([...description].length > LIMITS.listDescriptionMax) return { ok: false, message: DESCRIPTION_TOO_LONG }
  return { ok: true, value: { name, description, isPrivate: draft.isPrivate } }
}
