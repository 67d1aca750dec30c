import type { components } from './contract/schema'

// Short names for the contract's shapes (openapi.yaml components), so screens and machines never spell the path.
type Schemas = components['schemas']

export type CurrentUser = Schemas['CurrentUser']
export type UserSummary = Schemas['UserSummary']
export type AuthResponse = Schemas['AuthResponse']
export type LoginRequest = Schemas['LoginRequest']
export type RegisterRequest = Schemas['RegisterRequest']
export type ChangePasswordRequest = Schemas['ChangePasswordRequest']
export type PreloginResponse = Schemas['PreloginResponse']
export type UpgradeRequest = Schemas['UpgradeRequest']
export type UpgradeResponse = Schemas['UpgradeResponse']
export type MeResponse = Schemas['MeResponse']
export type MessageKeysRequest = Schemas['MessageKeysRequest']
export type MessageKeysResponse = Schemas['MessageKeysResponse']
export type ApiMessage = Schemas['Message']
