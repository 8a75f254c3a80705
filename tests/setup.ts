// Preloaded by bun test (bunfig.toml): quiet logs unless DEBUG_TESTS is set, cheap password hashing.
import { setLogLevel } from '../src/lib/log'
import { setPasswordHashCost } from '../src/auth/passwords'

setLogLevel(process.env.DEBUG_TESTS ? 'debug' : 'silent')

// Real argon2id, at a cost that keeps the suites' thousands of hashes and sign-ins cheap (the
// default costs about 180 ms a hash here). Servers and CLI processes spawned by tests keep the
// defaults; tests/unit/auth/passwords.test.ts checks those.
setPasswordHashCost({ memoryCost: 1024, timeCost: 1 })
