import { defineRecipe } from '@pandacss/dev'

// Surfaces that group content (auth forms, settings sections, placeholders).
export const cardRecipe = defineRecipe({
  className: 'card',
  description: 'A bordered surface',
  base: {
    bg: 'bg.surface',
    borderWidth: '1px',
    borderColor: 'border',
    borderRadius: '2xl',
    color: 'fg.default',
  },
  variants: {
    padding: {
      none: { p: '0' },
      md: { p: { base: '4', md: '5' } },
      lg: { p: { base: '5', md: '8' } },
    },
    elevated: {
      true: { boxShadow: 'card' },
    },
  },
  defaultVariants: { padding: 'md' },
})
