/**
 * Runs before every test file (vitest `setupFiles`). The SDK imports ky on
 * the first request; loaded here, that import is already settled when a test
 * installs fake timers, so a test run alone (`-t`) behaves as in the full
 * run, where an earlier test had loaded it. Otherwise the first request would
 * wait on real file I/O while the test moves a fake clock past it.
 */
import { loadKy } from '../../src/core/wire/send.js';

await loadKy('http://127.0.0.1', undefined);
