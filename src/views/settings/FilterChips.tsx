import { useSelector } from '@xstate/react'
import type { FilterList, FilterListsRef } from '../../machines/filter-lists/filter-lists.machine'
import {
  selectCanAdd,
  selectDraft,
  selectError,
  selectSaving,
  selectValues,
} from '../../machines/filter-lists/filter-lists.selectors'
import { AddForm, Chips } from './ChipList'

// One keyword or domain list of a lists actor (filter-lists.machine.ts): its chips and its Add form, for Settings ->
// Blocked Accounts and the Mute Management dialog alike. Only the words, the ids and the order differ.

/** A list's words on screen. */
export interface FilterChipsTexts {
  title: string
  emptyText: string
  /** The Add form's name and its field's label. */
  label: string
  placeholder: string
}

const NOUN: Record<FilterList, 'keyword' | 'domain'> = { keywords: 'keyword', domains: 'domain' }

export function FilterChips<U>({
  actor,
  list,
  texts,
  titleId,
  formFirst = false,
}: {
  actor: FilterListsRef<U>
  list: FilterList
  texts: FilterChipsTexts
  titleId: string
  /** The Add form above the chips (the dialog's tabs) instead of under them. */
  formFirst?: boolean
}) {
  const values = useSelector(actor, selectValues(list))
  const draft = useSelector(actor, selectDraft(list))
  const error = useSelector(actor, selectError(list))
  const canAdd = useSelector(actor, selectCanAdd(list))
  const saving = useSelector(actor, selectSaving)
  const chips = (
    <Chips
      title={texts.title}
      id={titleId}
      noun={NOUN[list]}
      values={values}
      emptyText={texts.emptyText}
      disabled={saving}
      onRemove={(value) => actor.send({ type: 'filter.remove', list, value })}
    />
  )
  const form = (
    <AddForm
      label={texts.label}
      placeholder={texts.placeholder}
      value={draft}
      error={error}
      canAdd={canAdd}
      saving={saving}
      onInput={(value) => actor.send({ type: 'filter.input', list, value })}
      onAdd={() => actor.send({ type: 'filter.add', list })}
    />
  )
  return formFirst ? (
    <>
      {form}
      {chips}
    </>
  ) : (
    <>
      {chips}
      {form}
    </>
  )
}
