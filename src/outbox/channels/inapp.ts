// In-app channel: deliberately a pass-through. The socket hub (src/realtime/hub.ts) already pushes
// every `match.new` to the user's open tabs the moment it is emitted, and a browser that was
// offline reloads its lists from the API, so nothing is queued for it. It sits in the registry so
// the set of channels reads in one place and a queued 'inapp' row (none today) is not an error.
import type { Channel } from './types'

export function inappChannel(): Channel {
  return { name: 'inapp', send: async () => {} }
}
