// The code samples of a Markdown guide: every fenced block, its language, the
// line it starts on, and the context it declares. Pure: text in, blocks out,
// so the rules are unit-tested (test/scripts/sample-blocks.test.ts).

/** How a checked block is compiled: as a TypeScript module or a JavaScript one. */
type SampleKind = 'ts' | 'js';

/** A fenced block whose language is compiled. */
export interface SampleBlock {
  /** The guide, as given to {@link sampleBlocks} (e.g. `docs/charges.md`). */
  guide: string;
  /** `ts` for ```ts, ```typescript, ```mts; `js` for ```js, ```javascript, ```mjs. */
  kind: SampleKind;
  /** 1-based line of the opening fence. */
  fenceLine: number;
  /** The block's lines, without the fences; line `i` is the guide's line `fenceLine + 1 + i`. */
  lines: string[];
  /** Names taken from the shared prelude (`<!-- sample-context: a, b -->` before the fence). */
  context: string[];
  /** 1-based line of the `sample-context` comment, when there is one. */
  contextLine: number | undefined;
}

/** What the guide gets wrong about its fences or markers, at a line. */
export interface FenceProblem {
  guide: string;
  line: number;
  message: string;
}

const LANGUAGES: Record<string, SampleKind> = {
  ts: 'ts',
  typescript: 'ts',
  mts: 'ts',
  js: 'js',
  javascript: 'js',
  mjs: 'js',
};
const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^\s*<!--\s*sample-context:([^>]*?)-->\s*$/;
const NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * Splits a guide into its compiled blocks. Every fence must name a language
 * (`text` for what is not code), so a TypeScript sample cannot go unchecked
 * behind a bare fence; a `sample-context` comment must sit right before a
 * compiled block (blank lines between are allowed) and list names.
 */
export function sampleBlocks(guide: string, markdown: string): { blocks: SampleBlock[]; problems: FenceProblem[] } {
  const lines = markdown.split(/\r?\n/);
  const blocks: SampleBlock[] = [];
  const problems: FenceProblem[] = [];
  const problem = (line: number, message: string): void => void problems.push({ guide, line, message });
  let marker: { line: number; names: string[] } | undefined;

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const markerMatch = MARKER.exec(line);
    if (markerMatch) {
      if (marker) problem(marker.line, 'this sample-context comment is not followed by a ts block');
      const names = markerMatch[1]!
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '');
      const bad = names.filter((name) => !NAME.test(name));
      if (names.length === 0 || bad.length > 0)
        problem(
          index + 1,
          `sample-context lists names separated by commas, e.g. <!-- sample-context: client, charge -->`,
        );
      marker = { line: index + 1, names };
      continue;
    }
    const fence = FENCE.exec(line);
    if (!fence) {
      if (marker && line.trim() !== '') {
        problem(marker.line, 'this sample-context comment is not followed by a ts block');
        marker = undefined;
      }
      continue;
    }
    const [, indent, ticks, language] = fence as unknown as [string, string, string, string];
    const close = lines.findIndex(
      (candidate, at) =>
        at > index &&
        candidate.startsWith(indent) &&
        new RegExp(`^\\s*\\${ticks[0]}{${ticks.length},}\\s*$`).test(candidate),
    );
    const end = close < 0 ? lines.length : close;
    if (close < 0) problem(index + 1, 'this fence is never closed');
    const kind = LANGUAGES[language.toLowerCase()];
    if (language === '')
      problem(index + 1, 'a fence names its language: ```ts for a sample, ```text for anything else');
    if (kind) {
      blocks.push({
        guide,
        kind,
        fenceLine: index + 1,
        lines: lines.slice(index + 1, end).map((text) => (text.startsWith(indent) ? text.slice(indent.length) : text)),
        context: marker?.names ?? [],
        contextLine: marker?.line,
      });
    } else if (marker) {
      problem(
        marker.line,
        `this sample-context comment is followed by a \`\`\`${language} block, which is not compiled`,
      );
    }
    marker = undefined;
    index = end;
  }
  if (marker) problem(marker.line, 'this sample-context comment is not followed by a ts block');
  return { blocks, problems };
}

/**
 * The module compiled for a block: its lines as written (so line `i` of the
 * module is line `i` of the block), then one import of its context from the
 * prelude. Imports are hoisted, so the import may come last.
 */
export function sampleModule(block: SampleBlock, prelude: string): string {
  const text = block.lines.join('\n');
  if (block.context.length === 0) return `${text}\n`;
  return `${text}\nimport { ${block.context.join(', ')} } from '${prelude}';\n`;
}

/** The guide's line for a 0-based line of the block's module (the context import maps to its comment). */
export function guideLine(block: SampleBlock, moduleLine: number): number {
  if (moduleLine < block.lines.length) return block.fenceLine + 1 + moduleLine;
  return block.contextLine ?? block.fenceLine;
}
