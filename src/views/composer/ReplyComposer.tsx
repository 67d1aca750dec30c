import { lazy, Suspense } from 'react'
import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { composerMachine } from '../../machines/composer/composer.machine'
import { selectIsOpen } from '../../machines/composer/composer.selectors'
import { selectUser } from '../../machines/session/session.selectors'
import type { ComposerRef } from '../../machines/composer/composer.machine'
import { ScreenActor, useSession } from '../actors'
import { usePosts } from '../actors'
import { Avatar } from '../ui/Avatar'
import { Spinner } from '../ui/Spinner'
import { shownName } from '../../machines/lib/shown-name'

// A post page's reply box: the prompt 'Reply to @author' opens a composer inline (its own actor, replying to this
// post). After 'Reply posted!' the prompt shows again and the reply appears in the list below.

const ComposerForm = lazy(() => import('./ComposerForm').then((m) => ({ default: m.ComposerForm })))

export function ReplyComposer({ postId, username }: { postId: string; username: string }) {
  const posts = usePosts()
  return (
    <ScreenActor logic={composerMachine} input={{ posts, replyTo: { id: postId, username } }}>
      {(composer) => <ReplyBox composer={composer} username={username} />}
    </ScreenActor>
  )
}

function ReplyBox({ composer, username }: { composer: ComposerRef; username: string }) {
  const open = useSelector(composer, selectIsOpen)
  const user = useSelector(useSession(), selectUser)

  return (
    <section aria-label="Reply" className={css({ px: '4', py: '3', borderBottomWidth: '1px', borderColor: 'border' })}>
      {open ? (
        <Suspense fallback={<Spinner size={20} label="Loading" />}>
          <ComposerForm composer={composer} onCancel={() => composer.send({ type: 'composer.close' })} />
        </Suspense>
      ) : (
        <button
          type="button"
          onClick={() => composer.send({ type: 'composer.open' })}
          className={css({
            display: 'flex',
            alignItems: 'center',
            gap: '3',
            w: 'full',
            textAlign: 'left',
            cursor: 'text',
            borderRadius: 'xl',
            _focusVisible: { outline: '2px solid', outlineColor: 'accent', outlineOffset: '2px' },
          })}
        >
          <Avatar src={user?.avatar} name={shownName(user) || '?'} size={36} />
          <span className={css({ flex: 1, h: '10', display: 'flex', alignItems: 'center', px: '4', borderRadius: 'full', bg: 'bg.subtle', color: 'fg.muted', fontSize: 'md' })}>
            Reply to @{username}
          </span>
        </button>
      )}
    </section>
  )
}
