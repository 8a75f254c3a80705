// What admin route plugins receive: the process's Deps and every long-lived service (the hub for
// open sockets, the source for the Reddit rate budget, the matcher for the index, the outbox).
import type { Deps } from '../../deps'
import type { Services } from '../../services'

export type AdminDeps = Deps & Services
