/**
 * Runs before every test file (vitest `setupFiles`). The SDK imports ky on
 * the first request, and on Node.js its Node transport from the second on;
 * loaded here, those imports are already settled when a test installs fake
 * timers, so a test run alone (`-t`) behaves as in the full run, where an
 * earlier test had loaded them, and every test's requests go through the
 * transport under test (a process's first attempt, which goes through global
 * `fetch`, is tested in a fresh process in test/unit/node-fetch.test.ts).
 * Otherwise the first request would wait on real file I/O while the test
 * moves a fake clock past it.
 */
import { loadKy, loadNodeTransportOnce } from '../../src/core/ky.js';

await Promise.all([loadKy('http://127.0.0.1', undefined), loadNodeTransportOnce()]);
