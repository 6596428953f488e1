// llms.txt (the llms.txt convention: a Markdown index for language models and the agents
// that use them): the package's title and summary from README.md, its entry points and
// commands from package.json, then a link per guide (docs/*.md, in the reference's reading
// order, typedoc.json `projectDocuments`) with its title and first sentence, the API index,
// the examples with their first comment line, and the rest. Generated, never written by
// hand, so it cannot drift from the docs; shipped in the package and kept at the
// repository's root, where its relative links work in both.
//   npx tsx scripts/llms-txt.ts           writes llms.txt
//   npx tsx scripts/llms-txt.ts --check   fails when llms.txt is not what the docs give (CI)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { outsideFences } from './docs/github-slugs.mjs';

export const OUTPUT = 'llms.txt';

/** The first `# Title` of a Markdown file. */
export function titleOf(markdown: string): string {
  const title = /^# (.+)$/m.exec(markdown)?.[1];
  if (title === undefined) throw new Error('no "# Title" line');
  return plain(title);
}

/**
 * The first sentence of the first paragraph of prose: not a heading, a fenced
 * block, an HTML comment, a table, a list or a quote. Links keep their text.
 */
export function summaryOf(markdown: string): string {
  const prose = outsideFences(markdown)
    .map(({ text }) => text)
    .join('\n')
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .find((block) => block !== '' && !/^(#|<!--|<|\||[-*+] |\d+\. |>|```)/.test(block));
  if (prose === undefined) throw new Error('no paragraph of prose');
  return firstSentence(plain(prose.replace(/\s*\n\s*/g, ' ')));
}

/** Up to the first `.`, `!` or `?` before a capital or the end ("e.g. a" and "`x.md`" end none); a closing `:` made a `.`. */
function firstSentence(text: string): string {
  const end = /[.!?](?=\s+[A-Z`*_(]|$)/.exec(text);
  const sentence = end === null ? text : text.slice(0, end.index + 1);
  // A paragraph that leads into a table or a list ("changes status:") reads as a sentence alone.
  return sentence.replace(/:$/, '.');
}

/** Inline Markdown read as text: a link as its text, emphasis without its marks. */
function plain(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .trim();
}

/** The first sentence of an example's leading block comment. */
function exampleSummary(source: string): string {
  const comment = /^\/\*\*\s*\n((?:\s*\*.*\n)+?)\s*\*\//m.exec(source)?.[1];
  if (comment === undefined) throw new Error('no leading /** comment');
  const lines = comment.split('\n').map((line) => line.replace(/^\s*\*\s?/, '').trim());
  const paragraph = lines.slice(0, lines.indexOf('') === -1 ? undefined : lines.indexOf(''));
  return firstSentence(plain(paragraph.join(' ')));
}

/** The `## Headings` of a Markdown file, outside fenced blocks: what a README covers. */
function sectionsOf(markdown: string): string[] {
  return outsideFences(markdown).flatMap(({ text }) => {
    const heading = /^## (.+)$/.exec(text)?.[1];
    return heading === undefined ? [] : [plain(heading)];
  });
}

interface Manifest {
  exports: Record<string, unknown>;
  bin?: Record<string, string>;
}

/** llms.txt as the files under `root` give it. */
export function llmsTxt(root: string): string {
  const read = (file: string) => readFileSync(join(root, file), 'utf8');
  const readme = read('README.md');
  const manifest = JSON.parse(read('package.json')) as Manifest & { name: string };
  const typedoc = JSON.parse(read('typedoc.json')) as { projectDocuments: string[] };

  const guides = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  // Reading order first; a guide the reference does not list yet comes after, by name.
  const ordered = [
    ...typedoc.projectDocuments.filter((file) => guides.includes(file)),
    ...guides.filter((file) => !typedoc.projectDocuments.includes(file)).sort(),
  ];
  const entryPoints = Object.keys(manifest.exports)
    .filter((key) => key !== './package.json')
    .map((key) => `\`${manifest.name}${key.slice(1)}\``);
  const commands = Object.keys(manifest.bin ?? {}).map((name) => `\`${name}\``);
  const examples = readdirSync(join(root, 'examples'))
    .filter((name) => name.endsWith('.ts'))
    .sort();

  const lines = [
    `# ${titleOf(readme)}`,
    '',
    `> ${summaryOf(readme)}`,
    '',
    `Install: \`npm install ${manifest.name}\`. Entry points: ${entryPoints.join(', ')}. ` +
      `Commands: ${commands.join(', ')}. Every link below is relative to this file, in the package and in the repository.`,
    '',
    '## Guides',
    '',
    ...ordered.map((file) => {
      const markdown = read(file);
      return `- [${titleOf(markdown)}](${file}): ${summaryOf(markdown)}`;
    }),
    '',
    '## API',
    '',
    `- [README](README.md): ${sectionsOf(readme).join(', ')}.`,
    `- [API index](api.md): ${summaryOf(read('api.md'))}`,
    '',
    '## Examples',
    '',
    ...examples.map((name) => `- [${name}](examples/${name}): ${exampleSummary(read(`examples/${name}`))}`),
    '',
    '## Optional',
    '',
    `- [Changelog](CHANGELOG.md): what changed in each release.`,
    `- [Security](SECURITY.md): ${summaryOf(read('SECURITY.md'))}`,
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const generated = llmsTxt(root);
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(join(root, OUTPUT), 'utf8');
    } catch {
      // Missing: reported below as out of date.
    }
    if (current !== generated) {
      console.error(`${OUTPUT} is not what README.md, docs/ and package.json give: run npx tsx scripts/llms-txt.ts`);
      process.exit(1);
    }
    console.log(`${OUTPUT} is up to date`);
  } else {
    writeFileSync(join(root, OUTPUT), generated);
    console.log(`wrote ${OUTPUT}`);
  }
}
