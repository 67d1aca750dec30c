import { calls, run } from '../../api/calls'
import type { TwoFactorProofRequest } from '../../api/types'
import { proveCurrentPassword } from '../keys/keys.auth'

/** What a change of the two-factor settings takes: the member's name (for their KDF settings), a code, the password. */
export interface CodeAndPasswordInput {
  username: string
  code: string
  password: string
}

/** The body of a two-factor change: the code, and the current password proven as a password change proves it. */
export async function proofRequest(input: CodeAndPasswordInput, signal?: AbortSignal): Promise<TwoFactorProofRequest> {
  return { code: input.code.trim(), ...(await proveCurrentPassword(input.username, input.password, signal)) }
}

export const twoFactorCalls = {
  setup: (signal: AbortSignal) => run(calls.setupTwoFactor(), signal),
  enable: async (input: CodeAndPasswordInput, signal: AbortSignal) =>
    run(calls.enableTwoFactor(await proofRequest(input, signal)), signal),
  disable: async (input: CodeAndPasswordInput, signal: AbortSignal) =>
    run(calls.disableTwoFactor(await proofRequest(input, signal)), signal),
  regenerate: async (input: CodeAndPasswordInput, signal: AbortSignal) =>
    run(calls.regenerateRecoveryCodes(await proofRequest(input, signal)), signal),
}

/** Saves the codes as a .txt through a Blob URL (the CSP allows blob: downloads; no data: URL involved). */
export function downloadText(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 1_000)
}
