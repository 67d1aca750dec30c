import { serve } from './serve'

// The server process (server/serve.ts says what it does), configured by the environment alone.
await serve()
