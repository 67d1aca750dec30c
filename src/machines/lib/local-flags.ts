// One-time flags the browser keeps (docs/product.md, "Welcome tour and banner"): `welcome-tour-completed` and
// `feature-banner-dismissed`, stored as the string 'true'. Storage may be missing or throw (private modes, node
// tests): then a flag lasts for the tab.

export const TOUR_COMPLETED_KEY = 'welcome-tour-completed'
export const BANNER_DISMISSED_KEY = 'feature-banner-dismissed'

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

export function readFlag(key: string): boolean {
  try {
    return storage()?.getItem(key) === 'true'
  } catch {
    return false
  }
}

export function writeFlag(key: string): void {
  try {
    storage()?.setItem(key, 'true')
  } catch {
    // Quota or disabled storage: the flag holds until the tab closes.
  }
}
