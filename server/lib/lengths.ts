import { Invalid } from './domain-errors'

/** Length as members count it: Unicode code points (an emoji is one), the same way the contract's maxLength does. */
export function codePointLength(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i)
    // A high surrogate followed by its low surrogate is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1)
      if (low >= 0xdc00 && low <= 0xdfff) i += 1
    }
    n += 1
  }
  return n
}

/**
 * A text field within the product's limits (src/api/contract/limits.ts). The contract checks the same numbers first
 * (tests/api/contract.test.ts keeps openapi.yaml equal to LIMITS); services check again so that a rule does not
 * depend on which route reached them. Worded as the contract's own messages (server/http/validation-messages.ts).
 */
export function checkLength(field: string, text: string, limits: { min?: number; max: number }): void {
  const length = codePointLength(text)
  if (limits.min !== undefined && length < limits.min) {
    throw new Invalid(`${field} must be at least ${limits.min} characters`)
  }
  if (length > limits.max) throw new Invalid(`${field} must be at most ${limits.max} characters`)
}
