// Preloaded by bun test (bunfig.toml): quiet logs unless DEBUG_TESTS is set.
import { setLogLevel } from '../src/lib/log'

setLogLevel(process.env.DEBUG_TESTS ? 'debug' : 'silent')
