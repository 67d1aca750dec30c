import { createStore } from '@xstate/store'
import { BANNER_DISMISSED_KEY, readFlag, writeFlag } from '../lib/local-flags'

// The new-features banner on Home: shown until dismissed, then never again in this browser.
export function createFeatureBannerStore(dismissed: boolean = readFlag(BANNER_DISMISSED_KEY)) {
  return createStore({
    context: { dismissed },
    on: {
      'banner.dismiss': (context, _event, enqueue) => {
        if (context.dismissed) return context
        enqueue.effect(() => writeFlag(BANNER_DISMISSED_KEY))
        return { dismissed: true }
      },
    },
  })
}

export type FeatureBannerStore = ReturnType<typeof createFeatureBannerStore>

export const featureBannerStore: FeatureBannerStore = createFeatureBannerStore()
