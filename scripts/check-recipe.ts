// CI gate: CONTRIBUTING.md's "Adding an endpoint" recipe compiles against
// src/ as written. Each ```ts block of that section starts with a comment
// naming the file it belongs in (`// src/resources/refunds.ts`); the blocks
// of one file are compiled together as that file, in memory only (nothing is
// written), with the project's tsconfig. An error is reported at its line in
// CONTRIBUTING.md. Run: npx tsx scripts/check-recipe.ts
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GUIDE = 'CONTRIBUTING.md';
const SECTION = '## Adding an endpoint';

/**
 * The recipe's files: each file named by a block's first line, with the
 * guide's line numbers kept (every line that is not one of its blocks is blank).
 */
function recipeFiles(markdown: string): Map<string, string[]> {
  const lines = markdown.split('\n');
  const start = lines.indexOf(SECTION);
  if (start < 0) fail(`${GUIDE} has no "${SECTION}" section`);
  const files = new Map<string, string[]>();
  let file: string[] | undefined;
  let opened = false;
  for (let index = start + 1; index < lines.length && !lines[index]!.startsWith('## '); index++) {
    const line = lines[index]!;
    if (file === undefined && !opened) {
      opened = line === '```ts';
      continue;
    }
    if (opened) {
      const name = /^\/\/ ((?:src|test)\/[\w/.-]+\.ts)\b/.exec(line)?.[1];
      if (name === undefined)
        fail(`${GUIDE}:${index + 1}: a ts block starts with the file it belongs in, e.g. // src/resources/refunds.ts`);
      if (existsSync(join(root, name)))
        fail(`${GUIDE}:${index + 1}: ${name} exists; the recipe's files must be new ones`);
      if (!files.has(name)) files.set(name, new Array<string>(lines.length).fill(''));
      file = files.get(name);
      opened = false;
    }
    if (line === '```') file = undefined;
    else file![index] = line;
  }
  if (files.size === 0) fail(`${GUIDE}'s "${SECTION}" section has no \`\`\`ts block`);
  return files;
}

function fail(message: string): never {
  console.error(`check-recipe: ${message}`);
  process.exit(1);
}

const files = new Map(
  [...recipeFiles(readFileSync(join(root, GUIDE), 'utf8'))].map(([name, lines]) => [
    join(root, name),
    lines.join('\n'),
  ]),
);
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
host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
host.getSourceFile = (name, language, ...rest) => {
  const text = files.get(name);
  return text === undefined
    ? getSourceFile.call(host, name, language, ...rest)
    : ts.createSourceFile(name, text, language);
};
const program = ts.createProgram([...files.keys()], config.options, host);
const diagnostics = ts.getPreEmitDiagnostics(program);
for (const diagnostic of diagnostics) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (diagnostic.file === undefined || diagnostic.start === undefined) {
    console.error(`TS${diagnostic.code}: ${message}`);
    continue;
  }
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  const where = files.has(diagnostic.file.fileName) ? GUIDE : relative(root, diagnostic.file.fileName);
  console.error(`${where}:${line + 1}:${character + 1} TS${diagnostic.code}: ${message}`);
}
if (diagnostics.length > 0) fail(`the recipe in ${GUIDE} does not compile (${diagnostics.length} errors)`);
console.log(
  `check-recipe: ${GUIDE}'s recipe compiles (${[...files.keys()].map((name) => relative(root, name)).join(', ')})`,
);
