import type { FormEvent } from 'react'
import { css } from 'styled-system/css'
import { button, input } from 'styled-system/recipes'
import { Icon } from '../ui/Icon'

// Removable chips and the one-line Add form under them: the blocked keywords and domains (Settings -> Blocked
// Accounts) and the muted ones (the Mute Management dialog) look and behave the same. Pure views: what they show and
// whether Add is offered come from the owning actor.

const groupTitle = css({ fontSize: 'md', fontWeight: 'bold' })
const empty = css({ fontSize: 'sm', color: 'fg.muted' })
const errorText = css({ fontSize: 'sm', color: 'danger.text', fontWeight: 'medium' })
const chip = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1',
  pl: '3',
  pr: '1',
  py: '1',
  borderRadius: 'full',
  bg: 'bg.subtle',
  borderWidth: '1px',
  borderColor: 'border',
  fontSize: 'sm',
  fontWeight: 'medium',
  maxW: 'full',
})
const chipRemove = css({
  display: 'inline-grid',
  placeItems: 'center',
  w: '6',
  h: '6',
  borderRadius: 'full',
  color: 'fg.muted',
  cursor: 'pointer',
  _hover: { bg: 'bg.surface', color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent' },
  _disabled: { opacity: 0.5, cursor: 'not-allowed' },
})

export interface ChipsProps {
  title: string
  id: string
  noun: 'keyword' | 'domain'
  values: ReadonlyArray<string>
  emptyText: string
  disabled: boolean
  onRemove: (value: string) => void
}

export function Chips({ title, id, noun, values, emptyText, disabled, onRemove }: ChipsProps) {
  return (
    <>
      <h3 id={id} className={groupTitle}>
        {title}
      </h3>
      {values.length === 0 ? (
        <p className={empty}>{emptyText}</p>
      ) : (
        <ul aria-label={title} className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>
          {values.map((value) => (
            <li key={value} className={chip}>
              <span className={css({ truncate: true })}>{value}</span>
              <button type="button" className={chipRemove} onClick={() => onRemove(value)} disabled={disabled} aria-label={`Remove ${noun} ${value}`}>
                <Icon name="close" size={14} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

export interface AddFormProps {
  label: string
  placeholder: string
  value: string
  error: string | null
  canAdd: boolean
  saving: boolean
  onInput: (value: string) => void
  onAdd: () => void
}

export function AddForm({ label, placeholder, value, error, canAdd, saving, onInput, onAdd }: AddFormProps) {
  const fieldId = `add-${label.toLowerCase().replace(/\W+/g, '-')}`
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (canAdd) onAdd()
  }
  return (
    <form onSubmit={submit} noValidate aria-label={label} className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
      <div className={css({ display: 'flex', gap: '2' })}>
        <input
          id={fieldId}
          className={input()}
          value={value}
          placeholder={placeholder}
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          onChange={(event) => onInput(event.target.value)}
        />
        <button type="submit" className={button()} disabled={!canAdd} aria-busy={saving}>
          Add
        </button>
      </div>
      {error ? (
        <p id={`${fieldId}-error`} role="alert" className={errorText}>
          {error}
        </p>
      ) : null}
    </form>
  )
}

