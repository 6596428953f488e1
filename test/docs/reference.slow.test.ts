// The built API reference as a person sees it, in Debian's Chromium driven by
// playwright-core (never a downloaded browser): the sidebar's categories in
// reading order, guides named by their titles, and no internals on the pages.
// Builds the reference first when docs/api is absent (`npm run docs`).
// In `npm run test:slow`: the build and a visit of every page take most of a minute.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openReferencePage } from '../helpers/chromium.js';

const ROOT = resolve(import.meta.dirname, '../..');
const REFERENCE = join(ROOT, 'docs/api');

let browser: Browser;
let page: Page;

const open = (file: string): Promise<void> => openReferencePage(page, REFERENCE, file);

/**
 * The group headings on the open page (a member group, an index section, a
 * section of "On This Page") that show although the page's filter (here its
 * defaults: inherited shown, external hidden) hides every member under them.
 */
async function emptyGroupHeadings(): Promise<string[]> {
  return page.evaluate(() => {
    const shown = (element: Element) => getComputedStyle(element).display !== 'none';
    const groups: [string, string][] = [
      ['.tsd-member-group', '.tsd-member, dt.tsd-member-summary'],
      ['.tsd-index-section', '.tsd-index-link'],
      ['.tsd-page-navigation-section', ':scope > div a'],
    ];
    return groups.flatMap(([group, member]) =>
      [...document.querySelectorAll(group)]
        .filter((element) => shown(element) && ![...element.querySelectorAll(member)].some(shown))
        .map((element) => (element.querySelector('h2, h3, summary')?.textContent ?? group).trim()),
    );
  });
}

beforeAll(async () => {
  browser = await launchChromium(); // first: a missing binary fails before the reference is built
  if (!existsSync(join(REFERENCE, 'index.html'))) {
    await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/typedoc/bin/typedoc')], { cwd: ROOT });
  }
  page = await browser.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the built API reference', () => {
  it('groups the sidebar by category, in reading order, with the other entry points after lunas-sdk', async () => {
    await open('index.html');
    const folders = await page.locator('.site-menu nav summary').allTextContents();
    expect(folders).toEqual([
      'lunas-sdk',
      'Client',
      'Resources',
      'Pagination',
      'Errors',
      'Webhooks',
      'Events',
      'Tracing',
      'lunas-sdk/mcp',
      'MCP',
      'lunas-sdk/otel',
      'OpenTelemetry',
      'lunas-sdk/testing',
      'Testing',
      'lunas-sdk/undici',
      'Transport',
    ]);
  });

  it('names guides by their titles, getting started first', async () => {
    await open('index.html');
    const links = await page.locator('.site-menu nav a').allTextContents();
    expect(links.slice(1, 4)).toEqual(['Getting started', 'Charges', 'Transfers and idempotency']);
    expect(links).not.toContain('transfers-and-idempotency');
  });

  it('shows PagePromise without the statics and [toStringTag] it inherits from Promise', async () => {
    await open('classes/lunas-sdk.PagePromise.html');
    const content = await page.locator('.col-content').innerText();
    expect(content).toContain('toArray');
    expect(content).not.toMatch(/allSettled|toStringTag|Properties/);
  });

  it('shows a resource without the unexported base class, with its errors linked', async () => {
    await open('classes/lunas-sdk.Charges.html');
    const content = await page.locator('.col-content').innerText();
    expect(content).not.toMatch(/\bResource\b/);
    expect(content).toContain('Throws');
    await expect(
      page.locator('.col-content a', { hasText: 'RequestValidationError' }).count(),
    ).resolves.toBeGreaterThan(0);
    // Every call's errors are one table in the guide, which each method links to.
    const table = page.locator('.col-content a[href$="errors-and-retries.html#every-error-a-call-can-raise"]');
    await expect(table.count()).resolves.toBe(3);
  });

  it('shows an error class without the static [hasInstance]', async () => {
    await open('classes/lunas-sdk.RateLimitError.html');
    const content = await page.locator('.col-content').innerText();
    expect(content).toContain('RateLimitError');
    // What a merchant reads off an error stays (Error's own are shown under the page's "External" setting).
    for (const field of ['status', 'requestId', 'idempotencyKey', 'toJSON']) expect(content).toContain(field);
    expect(content).not.toContain('hasInstance');
    expect(content).not.toContain('captureStackTrace');
  });

  it('shows no group heading whose members are all hidden, on any page (SandboxError had an empty Constructors)', async () => {
    const pages = readdirSync(REFERENCE, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.html'),
    );
    expect(pages).toContain(join('classes', 'lunas-sdk_testing.SandboxError.html'));
    const empty: string[] = [];
    for (const file of pages) {
      await open(file);
      for (const heading of await emptyGroupHeadings())
        empty.push(`${relative(REFERENCE, join(REFERENCE, file))}: ${heading}`);
    }
    expect(empty).toEqual([]);
  }, 240_000);

  it('opens a guide at its title, and its reference links land on the symbol', async () => {
    await open('documents/charges.html');
    await expect(page.locator('.col-content h1').first().innerText()).resolves.toBe('Charges');
    const create = page.locator('.col-content a', { hasText: 'Charges.create' });
    await expect(create.getAttribute('href')).resolves.toBe('../classes/lunas-sdk.Charges.html#create');
  });
});
