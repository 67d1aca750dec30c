import { css, cx } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import { Icon } from '../ui/Icon'
import { Menu, type MenuItem } from '../ui/Menu'
import { PostIcon } from './icons'

// The card's overflow menu (docs/product.md, "Post card"): the author sees Analytics, Edit (the composer in edit mode)
// and Delete; everyone else sees Report (the report dialog), Mute @user and Block User. A quote of the viewer's own post
// starts with Detach quote, for either.

const placement = css({ position: 'absolute', zIndex: 30, top: 'calc(100% + 0.25rem)', right: 0, minW: '200px' })

export interface PostMenuProps {
  isOwner: boolean
  onDelete: () => void
  /** The author's Analytics: opens the post's analytics. */
  onAnalytics?: () => void
  /** The author's Edit: opens the composer on the post. */
  onEdit?: () => void
  onBlock?: () => void
  /** Mute @user: the author's username and what opens the mute dialog. */
  mute?: { username: string; onSelect: () => void }
  /** Report: opens the report dialog about this post. */
  onReport?: () => void
  /** Detach quote: the viewer's own post is quoted here (docs/product.md, "Quotes"). */
  onDetach?: () => void
}

export function PostMenu({ isOwner, onDelete, onAnalytics, onEdit, onBlock, mute, onReport, onDetach }: PostMenuProps) {
  const detach: MenuItem[] = onDetach ? [{ label: 'Detach quote', icon: <PostIcon name="detach" size={18} />, onSelect: onDetach }] : []
  const own: MenuItem[] = isOwner
    ? [
        ...(onAnalytics ? [{ label: 'Analytics', icon: <Icon name="chart" size={18} />, onSelect: onAnalytics }] : []),
        ...(onEdit ? [{ label: 'Edit', icon: <PostIcon name="edit" size={18} />, onSelect: onEdit }] : []),
        { label: 'Delete', icon: <PostIcon name="trash" size={18} />, tone: 'danger', onSelect: onDelete },
      ]
    : [
        ...(onReport ? [{ label: 'Report', icon: <PostIcon name="flag" size={18} />, onSelect: onReport }] : []),
        ...(mute ? [{ label: `Mute @${mute.username}`, icon: <Icon name="mute" size={18} />, onSelect: mute.onSelect }] : []),
        { label: 'Block User', icon: <PostIcon name="block" size={18} />, tone: 'danger', onSelect: onBlock },
      ]
  const items = [...detach, ...own]

  return (
    <Menu
      label="Post options"
      items={items}
      trigger={() => <PostIcon name="more" size={18} />}
      triggerLabel="More options"
      triggerClassName={cx(button({ variant: 'ghost', size: 'icon' }), css({ w: '8', h: '8', mt: '-1', mr: '-1.5', color: 'fg.muted' }))}
      popupClassName={placement}
      className={css({ ml: 'auto', flexShrink: 0 })}
    />
  )
}
