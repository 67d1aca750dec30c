import { defineRecipe } from '@pandacss/dev'

// Buttons: one solid accent action per screen, outline/ghost for the rest. Sizes keep a 40 px+ target on phones.
export const buttonRecipe = defineRecipe({
  className: 'button',
  description: 'Actions: solid accent, outline, ghost, danger',
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    fontWeight: 'semibold',
    borderRadius: 'full',
    borderWidth: '1px',
    borderColor: 'transparent',
    cursor: 'pointer',
    whiteSpace: 'nowrap',
    userSelect: 'none',
    transitionProperty: 'background-color, border-color, color, box-shadow, transform',
    transitionDuration: 'fast',
    _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
    _active: { transform: 'scale(0.98)' },
    _disabled: { opacity: 0.55, cursor: 'not-allowed', _active: { transform: 'none' } },
    '& svg': { width: '1.1em', height: '1.1em', flexShrink: 0 },
  },
  variants: {
    variant: {
      solid: {
        bg: 'accent',
        color: 'accent.fg',
        _hover: { bg: 'accent.hover', _disabled: { bg: 'accent' } },
      },
      outline: {
        bg: 'bg.surface',
        color: 'fg.default',
        borderColor: 'border.strong',
        _hover: { bg: 'bg.subtle', _disabled: { bg: 'bg.surface' } },
      },
      ghost: {
        bg: 'transparent',
        color: 'fg.default',
        _hover: { bg: 'bg.subtle', _disabled: { bg: 'transparent' } },
      },
      danger: {
        bg: 'danger',
        color: 'accent.fg',
        _hover: { bg: 'danger.hover', _disabled: { bg: 'danger' } },
      },
      soft: {
        bg: 'accent.subtle',
        color: 'accent.text',
        _hover: { bg: 'accent.muted', _disabled: { bg: 'accent.subtle' } },
      },
    },
    size: {
      sm: { h: '8', px: '3.5', fontSize: 'sm' },
      md: { h: '10', px: '4.5', fontSize: 'sm' },
      lg: { h: '12', px: '6', fontSize: 'md' },
      icon: { h: '10', w: '10', p: '0', fontSize: 'md' },
    },
    fullWidth: {
      true: { w: 'full' },
    },
  },
  defaultVariants: { variant: 'solid', size: 'md' },
})
