// Debian's Chromium (or the binary CHROMIUM names) driven by playwright-core,
// which never downloads a browser: for the browser tests and
// scripts/screenshot-reference.ts. An empty CHROMIUM counts as unset, as
// `${CHROMIUM:-…}` in test/runtimes/run.sh: handed to playwright, '' would send it
// looking for a browser of its own download.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/**
 * Headless Chromium, with `args` added to its command line; without the
 * binary, an error naming the install command (never a skip).
 */
export async function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium) or set CHROMIUM to a Chromium binary. ` +
        'playwright-core never downloads a browser here.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...args] });
}

/** Opens a page of the built API reference once its sidebar, filled in by script from navigation.js, is there. */
export async function openReferencePage(page: Page, reference: string, file: string): Promise<void> {
  await page.goto(pathToFileURL(resolve(reference, file)).href);
  await page.locator('.site-menu nav a').first().waitFor();
}
