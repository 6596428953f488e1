// The rules of scripts/check-samples.ts that do not need a compiler: which
// fences are samples, the context a comment declares, and the guide line an
// error in a block's module maps to.
import { describe, expect, it } from 'vitest';
import { guideLine, sampleBlocks, sampleModule } from '../../scripts/samples/blocks.js';

const guide = (...lines: string[]) => lines.join('\n');

describe('sampleBlocks', () => {
  it('takes ts, typescript and js blocks with their fence line, and leaves sh, text and json', () => {
    const { blocks, problems } = sampleBlocks(
      'docs/a.md',
      guide(
        '# A',
        '```ts',
        'const a = 1;',
        '```',
        '```sh',
        'npm test',
        '```',
        '```typescript',
        'const b = 2;',
        'const c = 3;',
        '```',
        '```text',
        'f(x?)',
        '```',
        '```json',
        '{}',
        '```',
        '```js',
        'const d = 4;',
        '```',
      ),
    );
    expect(problems).toEqual([]);
    expect(blocks.map(({ kind, fenceLine, lines }) => ({ kind, fenceLine, lines }))).toEqual([
      { kind: 'ts', fenceLine: 2, lines: ['const a = 1;'] },
      { kind: 'ts', fenceLine: 8, lines: ['const b = 2;', 'const c = 3;'] },
      { kind: 'js', fenceLine: 18, lines: ['const d = 4;'] },
    ]);
  });

  it('ends a block only at a fence at least as long as its opening one', () => {
    const { blocks } = sampleBlocks('README.md', guide('````ts', 'const md = `', '```', '`;', '````'));
    expect(blocks[0]?.lines).toEqual(['const md = `', '```', '`;']);
  });

  it('gives the names of a sample-context comment to the next block only, across blank lines', () => {
    const { blocks, problems } = sampleBlocks(
      'README.md',
      guide('<!-- sample-context: client,  charge -->', '', '```ts', 'charge;', '```', '```ts', 'client;', '```'),
    );
    expect(problems).toEqual([]);
    expect(blocks.map(({ context, contextLine }) => ({ context, contextLine }))).toEqual([
      { context: ['client', 'charge'], contextLine: 1 },
      { context: [], contextLine: undefined },
    ]);
  });

  it('refuses a bare fence, so a sample cannot hide behind one', () => {
    const { blocks, problems } = sampleBlocks(
      'docs/b.md',
      guide('text', '```', 'client.charges.create(params)', '```'),
    );
    expect(blocks).toEqual([]);
    expect(problems).toEqual([{ guide: 'docs/b.md', line: 2, message: expect.stringContaining('```text') }]);
  });

  it('refuses a sample-context comment that no ts block follows', () => {
    const { problems } = sampleBlocks(
      'docs/c.md',
      guide(
        '<!-- sample-context: client -->',
        'Some prose.',
        '<!-- sample-context: client -->',
        '```sh',
        'npm test',
        '```',
        '<!-- sample-context: sandbox -->',
      ),
    );
    expect(problems.map(({ line }) => line)).toEqual([1, 3, 7]);
    expect(problems[1]?.message).toContain('```sh');
  });

  it('refuses a sample-context comment without names, or with one that is not an identifier', () => {
    const { problems } = sampleBlocks(
      'docs/d.md',
      guide('<!-- sample-context: -->', '```ts', '```', '<!-- sample-context: a b -->', '```ts', '```'),
    );
    expect(problems.map(({ line }) => line)).toEqual([1, 4]);
  });

  it('reports a fence never closed', () => {
    const { blocks, problems } = sampleBlocks('docs/e.md', guide('```ts', 'const a = 1;'));
    expect(blocks[0]?.lines).toEqual(['const a = 1;']);
    expect(problems).toEqual([{ guide: 'docs/e.md', line: 1, message: 'this fence is never closed' }]);
  });
});

describe('sampleModule and guideLine', () => {
  const [block] = sampleBlocks(
    'README.md',
    guide('# T', '', '<!-- sample-context: client -->', '```ts', 'const a = 1;', 'client;', '```'),
  ).blocks;

  it('keeps the block line for line and imports its context after it', () => {
    expect(sampleModule(block!, './context.js')).toBe(
      "const a = 1;\nclient;\nimport { client } from './context.js';\n",
    );
  });

  it('adds nothing to a block without context', () => {
    const [plain] = sampleBlocks('README.md', guide('```ts', 'const a = 1;', '```')).blocks;
    expect(sampleModule(plain!, './context.js')).toBe('const a = 1;\n');
  });

  it('maps a module line to the guide line, and the context import to its comment', () => {
    expect(guideLine(block!, 0)).toBe(5);
    expect(guideLine(block!, 1)).toBe(6);
    expect(guideLine(block!, 2)).toBe(3);
  });
});
