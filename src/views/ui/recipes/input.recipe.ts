import { defineRecipe } from '@pandacss/dev'

// Text inputs and selects share one look; aria-invalid turns the border red so errors are visible without colour alone
// (the message under the field says what is wrong).
export const inputRecipe = defineRecipe({
  className: 'input',
  description: 'Text fields and selects',
  base: {
    w: 'full',
    h: '11',
    px: '3.5',
    fontSize: 'md',
    color: 'fg.default',
    bg: 'bg.surface',
    borderWidth: '1px',
    borderColor: 'border.strong',
    borderRadius: 'lg',
    transitionProperty: 'border-color, box-shadow',
    transitionDuration: 'fast',
    _placeholder: { color: 'fg.subtle' },
    _hover: { borderColor: 'fg.subtle' },
    _focusVisible: {
      outline: 'none',
      borderColor: 'accent',
      boxShadow: '0 0 0 3px token(colors.accent.ring)',
    },
    // Doubled class: an invalid field stays red while hovered or focused (same-specificity rules would win by order).
    '&&[aria-invalid=true]': {
      borderColor: 'danger',
      _focusVisible: { boxShadow: '0 0 0 3px token(colors.danger.ring)' },
    },
    _disabled: { opacity: 0.6, cursor: 'not-allowed' },
  },
  variants: {
    size: {
      md: {},
      sm: { h: '9', fontSize: 'sm', px: '3' },
    },
  },
  defaultVariants: { size: 'md' },
})
