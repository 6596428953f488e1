/**
 * Runs before every test file (vitest `setupFiles`). The SDK imports ky on
 * the first request, and on Node.js settles the process's transport (its
 * Node transport, which imports undici) with it; loaded here, those imports
 * are already settled when a test installs fake timers, so a test run alone
 * (`-t`) behaves as in the full run, where an earlier test had loaded them.
 * Otherwise the first request would wait on real file I/O while the test
 * moves a fake clock past it.
 */
import { loadKy, processTransport } from '../../src/core/ky.js';

await Promise.all([loadKy('http://127.0.0.1', undefined), processTransport()]);
