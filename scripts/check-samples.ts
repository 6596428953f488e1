// CI gate: every ```ts block of README.md and docs/*.md (not docs/api/)
// compiles against the packed package, as a merchant's project sees it: the
// tarball installed into a fresh ES-module project, `strict`, `module` and
// `moduleResolution` NodeNext, @types/node, top-level await. Each block is its
// own module, all of them in one tsc program. A block that continues an earlier
// one says which names it takes from the shared prelude
// (docs/samples/context.d.ts) in a comment right before its fence:
// <!-- sample-context: client, charge -->. Other packages the samples import are
// declared in docs/samples/modules.d.ts, except vitest, msw, @opentelemetry/api and
// @opentelemetry/sdk-metrics, linked from this repository's devDependencies. ```js blocks are checked too (checkJs).
// An error is reported at its guide line. Needs a build. Run: npx tsx scripts/check-samples.ts
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { guideLine, sampleBlocks, sampleModule, type FenceProblem, type SampleBlock } from './samples/blocks.js';
import { installedConsumer } from './samples/consumer.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PRELUDE = 'docs/samples/context.d.ts';
const MODULES = 'docs/samples/modules.d.ts';
/** Packages a sample imports that this repository has installed, so their real types are used. */
// @modelcontextprotocol: the MCP packages (a scope: server, client, core), which docs/mcp.md's samples import;
// @opentelemetry: the API and the metrics SDK, which docs/tracing.md's samples import.
const LINKED = ['vitest', 'msw', '@modelcontextprotocol', '@opentelemetry/api', '@opentelemetry/sdk-metrics'];
const started = performance.now();

const guides = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const blocks: SampleBlock[] = [];
const problems: FenceProblem[] = [];
/** Each guide's lines, read once: an error quotes its guide line from here. */
const guideLines = new Map<string, string[]>();
for (const guide of guides) {
  const markdown = readFileSync(join(root, guide), 'utf8');
  guideLines.set(guide, markdown.split(/\r?\n/));
  const found = sampleBlocks(guide, markdown);
  blocks.push(...found.blocks);
  problems.push(...found.problems);
}

const consumer = installedConsumer(root);
let failed: Set<SampleBlock>;
let errors: string[];
try {
  copyFileSync(join(root, PRELUDE), join(consumer.sources, 'context.d.ts'));
  copyFileSync(join(root, MODULES), join(consumer.sources, 'modules.d.ts'));
  for (const name of LINKED) {
    // A scoped package's folder (`@opentelemetry/`) first.
    mkdirSync(dirname(join(consumer.modules, name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(consumer.modules, name), 'dir');
  }
  const files = new Map<string, SampleBlock>();
  for (const block of blocks) {
    const name = `${block.guide.replaceAll('/', '_')}_L${block.fenceLine}.${block.kind === 'ts' ? 'ts' : 'mjs'}`;
    const file = join(consumer.sources, name);
    writeFileSync(file, sampleModule(block, './context.js'));
    files.set(file, block);
  }
  ({ failed, errors } = compile(files, consumer.sources));
} finally {
  rmSync(consumer.directory, { recursive: true, force: true });
}

/** One tsc program over every block; its errors, each at the guide line it comes from. */
function compile(files: Map<string, SampleBlock>, sources: string): { failed: Set<SampleBlock>; errors: string[] } {
  const options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    moduleDetection: ts.ModuleDetectionKind.Force,
    types: ['node'],
    typeRoots: [join(root, 'node_modules/@types')],
    allowJs: true,
    checkJs: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const program = ts.createProgram([...files.keys(), join(sources, 'modules.d.ts')], options);
  const copies = new Map([
    [join(sources, 'context.d.ts'), PRELUDE],
    [join(sources, 'modules.d.ts'), MODULES],
  ]);
  const failed = new Set<SampleBlock>();
  const located: { order: number; line: number; column: number; text: string }[] = [];
  const errors: string[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    const source = diagnostic.file;
    if (source === undefined || diagnostic.start === undefined) {
      errors.push(message);
      continue;
    }
    const { line, character } = source.getLineAndCharacterOfPosition(diagnostic.start);
    const block = files.get(resolve(source.fileName));
    if (block === undefined) {
      errors.push(`${copies.get(resolve(source.fileName)) ?? source.fileName}:${line + 1}:${character + 1} ${message}`);
      continue;
    }
    failed.add(block);
    const at = guideLine(block, line);
    const column = at === block.contextLine ? 1 : character + 1;
    const text = guideLines.get(block.guide)?.[at - 1] ?? '';
    located.push({
      order: guides.indexOf(block.guide),
      line: at,
      column,
      text: `${block.guide}:${at}:${column} (in the block at line ${block.fenceLine}) ${message}\n  ${String(at).padStart(5)} | ${text}`,
    });
  }
  located.sort((a, b) => a.order - b.order || a.line - b.line || a.column - b.column);
  return { failed, errors: [...errors, ...located.map((error) => error.text)] };
}

for (const { guide, line, message } of problems) console.error(`${guide}:${line} ${message}`);
for (const error of errors) console.error(error);

console.log('guide                               blocks  compile');
for (const guide of guides) {
  const own = blocks.filter((block) => block.guide === guide);
  if (own.length === 0) continue;
  const compiling = own.filter((block) => !failed.has(block)).length;
  console.log(`${guide.padEnd(36)}${String(own.length).padStart(6)}${String(compiling).padStart(9)}`);
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const compiling = blocks.length - failed.size;
console.log(`${compiling} of ${blocks.length} samples compile against the packed package (${seconds} s)`);
if (problems.length > 0 || errors.length > 0) {
  console.error(
    `check-samples: ${problems.length + errors.length} problem(s) above; a block that continues an earlier one ` +
      `declares its names: <!-- sample-context: client --> before the fence, defined in ${relative(root, join(root, PRELUDE))}`,
  );
  process.exit(1);
}
