import { useSelector } from '@xstate/store-react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { featureBannerStore } from '../../machines/feature-banner/feature-banner.store'
import { Icon } from '../ui/Icon'

/** Home's new-features banner: until dismissed, once per browser (`feature-banner-dismissed`). */
export function FeatureBanner() {
  const dismissed = useSelector(featureBannerStore, (s) => s.context.dismissed)
  if (dismissed) return null
  return (
    <section
      aria-label="What's new"
      className={css({ display: 'flex', alignItems: 'flex-start', gap: '3', mx: '4', mt: '4', px: '4', py: '3', borderRadius: 'xl', borderWidth: '1px', borderColor: 'border', bg: 'bg.subtle' })}
    >
      <span className={css({ color: 'accent.text', display: 'inline-flex', mt: '0.5' })}>
        <Icon name="sparkles" size={20} />
      </span>
      <div className={css({ flex: 1, minW: 0 })}>
        <p className={css({ fontWeight: 'semibold' })}>New: posts, photos and replies</p>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', lineHeight: '1.55' })}>
          Share what's happening with up to four photos or videos, choose who sees each post, and reply to keep the
          conversation going.
        </p>
      </div>
      <button
        type="button"
        className={button({ variant: 'ghost', size: 'icon' })}
        aria-label="Dismiss"
        title="Dismiss"
        onClick={() => featureBannerStore.send({ type: 'banner.dismiss' })}
      >
        <Icon name="close" size={18} />
      </button>
    </section>
  )
}
