// CI gate: CONTRIBUTING.md's "Adding an endpoint" recipe compiles against
// src/ as written. Each ```ts block of that section starts with a comment
// naming where it belongs: a new file (`// src/resources/refunds.ts`), whose
// blocks are compiled together as that file, or a place in an existing one
// (`// src/testing/service/routes.ts, after: <a line of that file>`), where the block
// is compiled inserted after that line. All in memory only (nothing is
// written), with the project's tsconfig. An error is reported at its line in
// CONTRIBUTING.md. Run: npx tsx scripts/check-recipe.ts
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { sampleBlocks } from './samples/blocks.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GUIDE = 'CONTRIBUTING.md';
const SECTION = '## Adding an endpoint';
const BLOCK_START = /^\s*\/\/ ((?:src|test)\/[\w/.-]+\.ts)(?:, after: (.+))?$/;

/** One line of a compiled file and where it comes from: a line of the guide, or of the file on disk (0-based). */
interface Line {
  text: string;
  from: { guide: number } | { file: number };
}

interface Block {
  name: string;
  /** The existing file's line the block goes after; `undefined` for a block of a new file. */
  after: string | undefined;
  lines: Line[];
}

/** The ts blocks of the recipe's section (fences read as check-samples.ts reads them), each with its guide lines. */
function recipeBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(SECTION);
  if (start < 0) fail(`${GUIDE} has no "${SECTION}" section`);
  const next = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const inSection = sampleBlocks(GUIDE, markdown).blocks.filter(
    ({ kind, fenceLine }) => kind === 'ts' && fenceLine > start && (next < 0 || fenceLine <= next),
  );
  if (inSection.length === 0) fail(`${GUIDE}'s "${SECTION}" section has no \`\`\`ts block`);
  return inSection.map(({ fenceLine, lines: code }) => {
    const match = BLOCK_START.exec(code[0] ?? '');
    if (match === null)
      fail(
        `${GUIDE}:${fenceLine + 1}: a ts block starts with where it belongs: // src/resources/refunds.ts (a new file) ` +
          'or // src/testing/service/routes.ts, after: <a line of that file>',
      );
    // Line `i` of a block is the guide's line `fenceLine + 1 + i`, 0-based here.
    const guideLines = code.map((text, index) => ({ text, from: { guide: fenceLine + index } }));
    return { name: match[1]!, after: match[2], lines: guideLines };
  });
}

/** Each file the recipe writes or changes, line by line, with where each line comes from. */
function recipeFiles(blocks: Block[]): Map<string, Line[]> {
  const files = new Map<string, Line[]>();
  for (const { name, after, lines } of blocks) {
    const where = `${GUIDE}:${(lines[0]!.from as { guide: number }).guide + 1}`;
    const exists = existsSync(join(root, name));
    if (after === undefined && exists) fail(`${where}: ${name} exists; name the line the block goes after`);
    if (after !== undefined && !exists) fail(`${where}: ${name} does not exist`);
    if (!files.has(name)) {
      const onDisk = exists ? readFileSync(join(root, name), 'utf8').split('\n') : [];
      files.set(
        name,
        onDisk.map((text, file) => ({ text, from: { file } })),
      );
    }
    const file = files.get(name)!;
    if (after === undefined) {
      file.push(...lines);
      continue;
    }
    const anchors = file.filter((line) => 'file' in line.from && line.text.trim() === after.trim());
    if (anchors.length !== 1)
      fail(`${where}: ${name} has ${anchors.length} lines "${after.trim()}", the block needs exactly one`);
    file.splice(file.indexOf(anchors[0]!) + 1, 0, ...lines);
  }
  return files;
}

function fail(message: string): never {
  console.error(`check-recipe: ${message}`);
  process.exit(1);
}

const files = new Map(
  [...recipeFiles(recipeBlocks(readFileSync(join(root, GUIDE), 'utf8')))].map(([name, lines]) => [
    join(root, name),
    lines,
  ]),
);
const texts = new Map([...files].map(([name, lines]) => [name, lines.map((line) => line.text).join('\n')]));
const config = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) =>
      fail(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
  },
);
if (!config) fail('tsconfig.json could not be read');
const host = ts.createCompilerHost(config.options);
const { fileExists, readFile, getSourceFile } = host;
host.fileExists = (name) => texts.has(name) || fileExists.call(host, name);
host.readFile = (name) => texts.get(name) ?? readFile.call(host, name);
host.getSourceFile = (name, language, ...rest) => {
  const text = texts.get(name);
  return text === undefined
    ? getSourceFile.call(host, name, language, ...rest)
    : ts.createSourceFile(name, text, language);
};
const program = ts.createProgram([...texts.keys()], config.options, host);
const diagnostics = ts.getPreEmitDiagnostics(program);
for (const diagnostic of diagnostics) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (diagnostic.file === undefined || diagnostic.start === undefined) {
    console.error(`TS${diagnostic.code}: ${message}`);
    continue;
  }
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  const fileName = relative(root, diagnostic.file.fileName);
  const from = files.get(diagnostic.file.fileName)?.[line]?.from ?? { file: line };
  const where = 'guide' in from ? `${GUIDE}:${from.guide + 1}` : `${fileName}:${from.file + 1}`;
  console.error(`${where}:${character + 1} TS${diagnostic.code}: ${message}`);
}
if (diagnostics.length > 0) fail(`the recipe in ${GUIDE} does not compile (${diagnostics.length} errors)`);
console.log(
  `check-recipe: ${GUIDE}'s recipe compiles (${[...files.keys()].map((name) => relative(root, name)).join(', ')})`,
);
