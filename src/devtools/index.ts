import { createInspectionStore } from './inspection.store'
export { InspectorPanel } from './InspectorPanel'

// Loaded only by `import.meta.env.DEV` code in src/main.tsx, so production builds never contain it.
const { store, inspect } = createInspectionStore()

export const inspectionStore = store
export { inspect }
