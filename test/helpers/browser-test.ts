// browserTest: a vitest test given one Debian Chromium per test file (chromium.ts), with
// REBOUND resolved to 127.0.0.1, for the payment page's and the sandbox page's browser tests.
import type { Browser } from 'playwright-core';
import { test } from 'vitest';
import { launchChromium } from './chromium.js';

/** A name the browser of {@link browserTest} resolves to 127.0.0.1, as a DNS-rebinding attacker's name does once rebound. */
export const REBOUND = 'evil.example';

/**
 * Tests given one headless Chromium per file, resolving {@link REBOUND} to 127.0.0.1; without
 * the binary each test fails naming the install, none is skipped.
 */
export const browserTest = test.extend<{ browser: Browser }>({
  browser: [
    // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern: none
    async ({}, use) => {
      const browser = await launchChromium([`--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`]);
      await use(browser);
      await browser.close();
    },
    { scope: 'file' },
  ],
});
