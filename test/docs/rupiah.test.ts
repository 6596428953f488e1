// Rupiah for people is written one way everywhere (docs/sandbox.md, "Amounts for
// people"): `Rp`, a plain space, `.` grouping thousands, `,` before the cents,
// as merchants in Indonesia read it. The sandbox's pages and command get it from
// formatAmount (test/sandbox/payment-page-render.test.ts); this holds the text
// people read beside them: README, the guides, the examples and the source's
// comments.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** The files under `dir` (relative to the root) whose names end with `ending`, at any depth. */
function filesUnder(dir: string, ending: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(ending))
    .map((name) => join(dir, name));
}

const TEXTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
  ...filesUnder('examples', '.ts'),
  ...filesUnder('src', '.ts'),
];

/**
 * `Rp` and an amount written another way: a no-break space (or none) after
 * `Rp`, `,` grouping thousands (`Rp 25,000`), a `.` before two cents
 * (`Rp 10.50`), or English words for the figure (`Rp 2.5 million`).
 */
const OTHER_WAYS =
  /Rp(?:[\u00a0\u202f]|\d)|Rp \d{1,3}(?:,\d{3})+|Rp \d+(?:\.\d{3})*\.\d\d(?!\d)|Rp [\d.,]+ (?:thousand|million|billion)/g;

describe('rupiah for people', () => {
  it('README, the guides, the examples and the comments write `Rp 25.000`, never `Rp 25,000` or a no-break space', () => {
    expect(TEXTS).toContain('docs/sandbox.md');
    expect(TEXTS).toContain('src/testing/pages/payment-page.ts');
    const found = TEXTS.flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(OTHER_WAYS)].map((match) => `${file}: ${match[0]}`),
    );
    expect(found).toEqual([]);
  });

  it('catches each of the other ways', () => {
    for (const text of ['Rp\u00a025.000', 'Rp25.000', 'Rp 25,000', 'Rp 1,500,000.50', 'Rp 10.50', 'Rp 2.5 million']) {
      expect(text.match(OTHER_WAYS), text).not.toBeNull();
    }
    for (const text of ['Rp 25.000', 'Rp 1.500.000,50', 'Rp 0,05', 'Rp 999', 'Rp 4.000 for a virtual account']) {
      expect(text.match(OTHER_WAYS), text).toBeNull();
    }
  });
});
