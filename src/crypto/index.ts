// The browser's end-to-end encryption for direct messages: pure TypeScript over WebCrypto, no React, no
// XState. Formats and the threat model: docs/security.md, "In the browser"; shapes and size bounds the server checks:
// src/api/contract/encryption.ts. Every operation is an Effect failing with a tagged error of ./errors.

export { generateKeyPair, type NewKeyPair } from './key-pair'
export {
  rewrapPrivateKey,
  passwordWrapper,
  sealWithKey,
  unwrapPrivateKeyWith,
  type KeyWrapper,
  type Opener,
} from './wrap'
export { deriveSecrets, freshKdf, type DerivedSecrets } from './kdf'
export { parsePublicKey, type MemberKeys, type PublicKey } from './keys'
export { deriveConversationKey } from './conversation-key'
export { ConversationKeyCache } from './conversation-key-cache'
export { encryptMessage, decryptMessage, messageLength, type MessageContext } from './messages'
export { safetyNumber, SAFETY_NUMBER_GROUPS } from './safety-number'
export { indexedDbKeyStore, memoryKeyStore, forgetKeys, type KeyStore, type StoredKeys } from './key-store'
export { unlockKeys, keysMatch, type AccountKeys } from './session-keys'
export * from './errors'
