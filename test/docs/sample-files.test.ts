/**
 * A guide's sample that is also a file the suite runs (test/samples/): the
 * block right after `<!-- sample-file: test/samples/x.test.ts -->` is that
 * file, character for character, so what the guide shows is what CI ran
 * (scripts/check-samples.ts compiles it against the tarball as well).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const MARKER = /^<!-- sample-file: (\S+) -->$/;
const guides = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Each marked block of a guide: the file it names, and the block's text (`undefined` when no ts block follows). */
function markedBlocks(guide: string): { file: string; block: string | undefined; line: number }[] {
  const lines = readFileSync(guide, 'utf8').split('\n');
  const found: { file: string; block: string | undefined; line: number }[] = [];
  lines.forEach((line, index) => {
    const file = MARKER.exec(line)?.[1];
    if (file === undefined) return;
    const end = lines.indexOf('```', index + 2);
    const block = lines[index + 1] === '```ts' && end > 0 ? lines.slice(index + 2, end).join('\n') + '\n' : undefined;
    found.push({ file, block, line: index + 1 });
  });
  return found;
}

const marked = guides.flatMap((guide) => markedBlocks(guide).map((found) => ({ guide, ...found })));

describe('samples shown in the guides and run by the suite', () => {
  it('shows every file of test/samples/ in a guide', () => {
    const samples = readdirSync('test/samples').map((name) => `test/samples/${name}`);
    expect(samples).toContain('test/samples/in-process-webhooks.test.ts');
    expect(new Set(marked.map(({ file }) => file))).toEqual(new Set(samples));
  });

  it.each(marked)('$guide:$line shows $file as it is', ({ file, block }) => {
    expect(block, 'a ```ts block right after the marker').toBeDefined();
    expect(block).toBe(readFileSync(file, 'utf8'));
  });
});
