// scripts/llms-txt.ts: llms.txt is what README.md, docs/ and package.json give today (so
// it cannot drift: CI runs the script with --check too), it links every guide with its
// title, it ships in the package, and a guide's summary is its first sentence of prose.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { llmsTxt, OUTPUT, summaryOf, titleOf } from '../../scripts/llms-txt.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(`${ROOT}${file}`, 'utf8');

describe('llms.txt', () => {
  it('is what the docs give: regenerate it with npx tsx scripts/llms-txt.ts', () => {
    expect(read(OUTPUT)).toBe(llmsTxt(ROOT));
  });

  it('links every guide once, by its title, and the entry points and commands package.json names', () => {
    const text = read(OUTPUT);
    const guides = readdirSync(`${ROOT}docs`).filter((name) => name.endsWith('.md'));
    expect(guides.length).toBeGreaterThan(10);
    for (const name of guides) {
      const links = text.split('\n').filter((line) => line.includes(`](docs/${name})`));
      expect(links, name).toEqual([
        expect.stringMatching(new RegExp(`^- \\[${escape(titleOf(read(`docs/${name}`)))}\\]`)),
      ]);
    }
    expect(text).toMatch(/^# lunas-sdk\n\n> lunas-sdk is the typed TypeScript SDK/);
    const { exports } = JSON.parse(read('package.json')) as { exports: Record<string, unknown> };
    const entryPoints = Object.keys(exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => `\`${subpath === '.' ? 'lunas-sdk' : `lunas-sdk/${subpath.slice(2)}`}\``);
    expect(entryPoints).toContain('`lunas-sdk/mcp`');
    expect(text).toContain(`Entry points: ${entryPoints.join(', ')}.`);
    expect(text).toContain('Commands: `lunas-sandbox`, `lunas-mcp`.');
  });

  it('ships in the package', () => {
    expect((JSON.parse(read('package.json')) as { files: string[] }).files).toContain(OUTPUT);
  });
});

describe('a guide summary', () => {
  it('is the first sentence of the first paragraph of prose, links read as their text', () => {
    const guide = [
      '# Title',
      '',
      '<!-- sample-context: client -->',
      '```ts',
      'const a = 1. Not prose.',
      '```',
      '',
      '| a | b |',
      '|---|---|',
      '',
      '- a list item.',
      '',
      'The [first](x.md) one, e.g. this',
      'and `x.md` too. A second sentence.',
    ].join('\n');
    expect(titleOf(guide)).toBe('Title');
    expect(summaryOf(guide)).toBe('The first one, e.g. this and `x.md` too.');
  });

  it('ends a paragraph that leads into a table as a sentence', () => {
    expect(summaryOf('# W\n\nThe service sends an event when:\n\n| a |\n|---|\n')).toBe(
      'The service sends an event when.',
    );
  });

  it('refuses a guide with no title or no prose', () => {
    expect(() => titleOf('no title')).toThrow('no "# Title" line');
    expect(() => summaryOf('# T\n\n```ts\nx\n```\n')).toThrow('no paragraph of prose');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&');
}
