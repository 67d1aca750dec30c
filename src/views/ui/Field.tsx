import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react'
import { css } from 'styled-system/css'
import { button, input as inputRecipe } from 'styled-system/recipes'
import { Spinner } from './Spinner'

// Labelled inputs for react-hook-form's `register(...)`: the error text is tied to the input with aria-describedby
// and aria-invalid, so screen readers announce it with the field.

const fieldStyle = css({ display: 'flex', flexDirection: 'column', gap: '1.5' })
const labelStyle = css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.default' })
const errorStyle = css({
  display: 'flex',
  alignItems: 'center',
  gap: '1',
  fontSize: 'sm',
  color: 'danger.text',
  fontWeight: 'medium',
})
const hintStyle = css({ fontSize: 'xs', color: 'fg.muted' })

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string
  error?: string | undefined
  hint?: ReactNode
  ref?: Ref<HTMLInputElement>
}

/** A field's own problem under it; the input names it in aria-describedby by this id. */
function FieldError({ inputId, error }: { inputId: string; error: string | undefined }) {
  if (!error) return null
  return (
    <p id={`${inputId}-error`} className={errorStyle}>
      {error}
    </p>
  )
}

export function TextField({ label, error, hint, id, ref, ...rest }: TextFieldProps) {
  const generated = useId()
  const inputId = id ?? generated
  const describedBy = [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null].filter(Boolean).join(' ')
  return (
    <div className={fieldStyle}>
      <label htmlFor={inputId} className={labelStyle}>
        {label}
      </label>
      <input
        id={inputId}
        ref={ref}
        className={inputRecipe()}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...rest}
      />
      {hint && !error ? (
        <p id={`${inputId}-hint`} className={hintStyle}>
          {hint}
        </p>
      ) : null}
      <FieldError inputId={inputId} error={error} />
    </div>
  )
}

const checkboxRow = css({ display: 'flex', alignItems: 'flex-start', gap: '2.5', fontSize: 'sm', color: 'fg.default' })
const checkboxInput = css({
  mt: '0.5',
  w: '4.5',
  h: '4.5',
  flexShrink: 0,
  accentColor: 'token(colors.accent)',
  cursor: 'pointer',
  _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
})

export interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode
  error?: string | undefined
  ref?: Ref<HTMLInputElement>
}

export function CheckboxField({ label, error, id, ref, ...rest }: CheckboxFieldProps) {
  const generated = useId()
  const inputId = id ?? generated
  return (
    <div className={fieldStyle}>
      <div className={checkboxRow}>
        <input
          id={inputId}
          ref={ref}
          type="checkbox"
          className={checkboxInput}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          {...rest}
        />
        <label htmlFor={inputId} className={css({ cursor: 'pointer', lineHeight: '1.45' })}>
          {label}
        </label>
      </div>
      <FieldError inputId={inputId} error={error} />
    </div>
  )
}

/** The server's answer under a form (e.g. 'Username is already taken'), announced when it appears. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null
  return (
    <div
      role="alert"
      className={css({
        display: 'flex',
        gap: '2',
        alignItems: 'flex-start',
        px: '3.5',
        py: '3',
        borderRadius: 'lg',
        bg: 'danger.subtle',
        color: 'danger.text',
        fontSize: 'sm',
        fontWeight: 'medium',
      })}
    >
      {message}
    </div>
  )
}

/** A dialog form's Cancel and submit buttons, at its right; both wait, and the submit spins, while it is sent. */
export function CancelSubmit({
  busy,
  onCancel,
  submitLabel,
  danger = false,
}: {
  busy: boolean
  onCancel: () => void
  submitLabel: string
  /** The submit cannot be undone (deleting the account). */
  danger?: boolean
}) {
  return (
    <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '1' })}>
      <button type="button" className={button({ variant: 'ghost' })} onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button type="submit" className={button(danger ? { variant: 'danger' } : undefined)} disabled={busy} aria-busy={busy}>
        {busy ? <Spinner size={16} /> : null}
        {submitLabel}
      </button>
    </div>
  )
}
