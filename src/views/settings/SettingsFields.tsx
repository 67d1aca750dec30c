import { useId, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react'
import { css, cx } from 'styled-system/css'
import { input as inputRecipe } from 'styled-system/recipes'

// The settings forms' multi-line and choice fields, labelled and described like ui/Field.tsx's TextField (error and
// hint tied to the control with aria-describedby), for react-hook-form's `register(...)`.

const fieldStyle = css({ display: 'flex', flexDirection: 'column', gap: '1.5' })
const labelRow = css({ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', gap: '3' })
const labelStyle = css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.default' })
const errorStyle = css({ fontSize: 'sm', color: 'danger.text', fontWeight: 'medium' })
const hintStyle = css({ fontSize: 'xs', color: 'fg.muted' })

function describedBy(id: string, error: string | undefined, hint: ReactNode) {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined
}

function Messages({ id, error, hint }: { id: string; error: string | undefined; hint: ReactNode }) {
  return (
    <>
      {hint && !error ? (
        <p id={`${id}-hint`} className={hintStyle}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={errorStyle}>
          {error}
        </p>
      ) : null}
    </>
  )
}

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string
  error?: string | undefined
  hint?: ReactNode
  /** Characters typed so far and the limit, shown as 'n/limit' beside the label (red past the limit). */
  count?: { value: number; max: number }
  ref?: Ref<HTMLTextAreaElement>
}

export function TextAreaField({ label, error, hint, count, id, ref, className, ...rest }: TextAreaFieldProps) {
  const generated = useId()
  const fieldId = id ?? generated
  const over = count !== undefined && count.value > count.max
  return (
    <div className={fieldStyle}>
      <div className={labelRow}>
        <label htmlFor={fieldId} className={labelStyle}>
          {label}
        </label>
        {count ? (
          <span
            className={css({ fontSize: 'xs', fontVariantNumeric: 'tabular-nums', color: over ? 'danger.text' : 'fg.muted' })}
            aria-live="polite"
          >
            {count.value}/{count.max}
          </span>
        ) : null}
      </div>
      <textarea
        id={fieldId}
        ref={ref}
        className={cx(inputRecipe(), css({ h: 'auto', minH: '28', py: '2.5', lineHeight: '1.5', resize: 'vertical' }), className)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, error, hint)}
        {...rest}
      />
      <Messages id={fieldId} error={error} hint={hint} />
    </div>
  )
}

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string
  options: ReadonlyArray<{ value: string; label: string }>
  error?: string | undefined
  hint?: ReactNode
  ref?: Ref<HTMLSelectElement>
}

export function SelectField({ label, options, error, hint, id, ref, ...rest }: SelectFieldProps) {
  const generated = useId()
  const fieldId = id ?? generated
  return (
    <div className={fieldStyle}>
      <label htmlFor={fieldId} className={labelStyle}>
        {label}
      </label>
      <select
        id={fieldId}
        ref={ref}
        // The platform's own arrow: it follows the colour scheme in both themes.
        className={cx(inputRecipe(), css({ appearance: 'auto', cursor: 'pointer' }))}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fieldId, error, hint)}
        {...rest}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <Messages id={fieldId} error={error} hint={hint} />
    </div>
  )
}
