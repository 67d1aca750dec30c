import { createContext, use, type ReactNode } from 'react'
import type { Actor, InspectionEvent, Observer } from 'xstate'
import type { SessionMachine } from '../machines/session/session.machine'

// The long-lived actors the screens share, handed down once from src/main.tsx. `inspect` is set only in development
// builds so screen-local actors (login form, password dialog) show up in the inspector too.

export type SessionActor = Actor<SessionMachine>
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void)

export interface AppActors {
  session: SessionActor
  inspect: Inspect | undefined
}

const AppActorsContext = createContext<AppActors | null>(null)

export function AppActorsProvider({ value, children }: { value: AppActors; children: ReactNode }) {
  return <AppActorsContext value={value}>{children}</AppActorsContext>
}

function useAppActors(): AppActors {
  const actors = use(AppActorsContext)
  if (!actors) throw new Error('AppActorsProvider is missing above this screen')
  return actors
}

export const useSession = (): SessionActor => useAppActors().session
export const useInspect = (): Inspect | undefined => useAppActors().inspect
