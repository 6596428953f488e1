// Screenshots of the built reference in Debian's Chromium, for a person to look at:
//   npx tsx scripts/screenshot-reference.ts [reference dir] [output dir]
// Defaults: docs/api (built by `npm run docs`) into .tmp/screenshots (ignored by git).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, openReferencePage } from '../test/helpers/chromium.js';

const [reference = 'docs/api', output = '.tmp/screenshots'] = process.argv.slice(2);
const pages = {
  index: 'index.html',
  resource: 'classes/lunas-sdk.Charges.html',
  error: 'classes/lunas-sdk.RateLimitError.html',
  guide: 'documents/transfers-and-idempotency.html',
};

mkdirSync(output, { recursive: true });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  for (const [name, file] of Object.entries(pages)) {
    await openReferencePage(page, reference, file);
    await page.screenshot({ path: join(output, `${name}.png`), fullPage: false });
    console.log(join(output, `${name}.png`));
  }
} finally {
  await browser.close();
}
