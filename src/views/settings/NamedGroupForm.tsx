import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { LIMITS } from '../../api/contract/limits'
import type { NamedGroupFormRef } from '../../machines/named-group-form/named-group-form.machine'
import { selectDraft, selectEditing, selectError, selectSaving } from '../../machines/named-group-form/named-group-form.selectors'
import { TextField } from '../ui/Field'
import { Spinner } from '../ui/Spinner'
import { TextAreaField } from './SettingsFields'

// The list / collection form (docs/product.md, "Lists" and "Bookmarks"): Name, Description with an n/200 counter,
// Private, Cancel and Create (Save when editing). The Manage Lists and Bookmarks dialogs both show it for their form
// child actor (named-group-form), so both say and allow the same.

export function NamedGroupForm({ form, noun, privateLabel }: { form: NamedGroupFormRef; noun: 'list' | 'collection'; privateLabel: string }) {
  const draft = useSelector(form, selectDraft)
  const editing = useSelector(form, selectEditing)
  const error = useSelector(form, selectError)
  const saving = useSelector(form, selectSaving)
  const title = `${editing ? 'Edit' : 'New'} ${noun}`
  return (
    <form
      noValidate
      aria-label={title}
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
      onSubmit={(event) => {
        event.preventDefault()
        form.send({ type: 'form.submit' })
      }}
    >
      <h3 className={css({ fontSize: 'md', fontWeight: 'bold' })}>{title}</h3>
      <TextField
        label="Name"
        value={draft.name}
        autoFocus
        maxLength={LIMITS.listNameMax + 10}
        disabled={saving}
        onChange={(event) => form.send({ type: 'form.name', value: event.target.value })}
      />
      <TextAreaField
        label="Description"
        value={draft.description}
        count={{ value: [...draft.description].length, max: LIMITS.listDescriptionMax }}
        disabled={saving}
        className={css({ minH: '20' })}
        onChange={(event) => form.send({ type: 'form.description', value: event.target.value })}
      />
      <label className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm', cursor: 'pointer' })}>
        <input type="checkbox" checked={draft.isPrivate} disabled={saving} onChange={(event) => form.send({ type: 'form.private', value: event.target.checked })} />
        {privateLabel}
      </label>
      {error ? (
        <p role="alert" className={css({ fontSize: 'sm', color: 'danger.text', fontWeight: 'medium' })}>
          {error}
        </p>
      ) : null}
      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
        <button type="button" className={button({ variant: 'ghost' })} disabled={saving} onClick={() => form.send({ type: 'form.cancel' })}>
          Cancel
        </button>
        {/* Always offered (but while saving): a form that breaks a rule says which under it. */}
        <button type="submit" className={button()} disabled={saving} aria-busy={saving}>
          {saving ? <Spinner size={16} /> : null}
          {editing ? 'Save' : 'Create'}
        </button>
      </div>
    </form>
  )
}
