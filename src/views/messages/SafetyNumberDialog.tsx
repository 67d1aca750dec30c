import { useSelector } from '@xstate/react'
import { css } from 'styled-system/css'
import { button } from 'styled-system/recipes'
import type { ConversationRef } from '../../machines/conversation/conversation.machine'
import {
  selectCanUnverify,
  selectCanVerify,
  selectSafetyNumber,
  selectTrustSaving,
  selectVerified,
} from '../../machines/conversation/conversation.selectors'
import { safetyQrText } from '../../machines/conversation/conversation.trust'
import { Dialog } from '../ui/Overlay'
import { QrCode } from '../ui/QrCode'

// The safety number of the open conversation: the 60 digits in 12 groups and as a QR code, and Verified / Unverify.
// What the number means and when it may be marked is the conversation actor's (conversation.trust.ts).

export function SafetyNumberDialog({ conversation, name, open, onClose }: { conversation: ConversationRef; name: string; open: boolean; onClose: () => void }) {
  const safetyNumber = useSelector(conversation, selectSafetyNumber)
  const verified = useSelector(conversation, selectVerified)
  const canVerify = useSelector(conversation, selectCanVerify)
  const canUnverify = useSelector(conversation, selectCanUnverify)
  const saving = useSelector(conversation, selectTrustSaving)
  const groups = safetyNumber?.split(' ') ?? []
  return (
    <Dialog open={open} onClose={onClose} title="Safety number" description={`Compare these digits with ${name}, in person or over another app.`}>
      {safetyNumber ? (
        <div className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '4' })}>
          <QrCode text={safetyQrText(safetyNumber)} label={`QR code of the safety number with ${name}`} />
          <p
            aria-label="Safety number digits"
            className={css({ display: 'grid', gridTemplateColumns: 'repeat(4, auto)', gap: '1.5 4', fontFamily: 'mono', fontSize: 'md', fontWeight: 'semibold', letterSpacing: 'wide' })}
          >
            {groups.map((group, i) => (
              <span key={i}>{group}</span>
            ))}
          </p>
          <p className={css({ fontSize: 'sm', color: 'fg.muted', textAlign: 'center' })}>
            If {name} sees the same 60 digits, no one else can read your messages. If they differ, someone may be in
            between: do not mark {name} as verified.
          </p>
          {verified ? (
            <p role="status" className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'success.text' })}>
              You verified {name}.
            </p>
          ) : null}
          <div className={css({ display: 'flex', gap: '2' })}>
            {canVerify || (saving && !verified) ? (
              <button type="button" className={button({ size: 'sm' })} disabled={saving} onClick={() => conversation.send({ type: 'key.verify' })}>
                Mark as verified
              </button>
            ) : null}
            {canUnverify || (saving && verified) ? (
              <button type="button" className={button({ variant: 'outline', size: 'sm' })} disabled={saving} onClick={() => conversation.send({ type: 'key.unverify' })}>
                Unverify
              </button>
            ) : null}
          </div>
        </div>
      ) : (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No safety number yet: {name} has no message key, or yours is not in this browser.</p>
      )}
    </Dialog>
  )
}
