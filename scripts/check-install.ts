// What `npm install lunas-sdk` gives a merchant, on the tarball `npm publish` would
// upload, installed into a fresh project (scripts/samples/consumer.ts; no network when
// npm's cache holds ky and zod, as it does after `npm ci`):
//   - `npm ls --omit=dev --all` lists lunas-sdk, ky and zod, nothing else: the
//     optional entry points' peer dependencies (@modelcontextprotocol/*, @opentelemetry/*,
//     undici) are not installed;
//   - `lunas-sdk` and `lunas-sdk/testing` load without them, from ESM and from CommonJS;
//   - `lunas-sdk/mcp` fails to load naming @modelcontextprotocol/server, and the `lunas-mcp`
//     command says how to install it (exit 1); `lunas-sdk/otel`, imported or required, fails
//     naming @opentelemetry/api;
//   - `lunas-sdk/undici` loads, and its undiciFetch rejects naming undici and how to install it.
// Needs a build first (npm run build): npx tsx scripts/check-install.ts
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedConsumer } from './samples/consumer.js';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The production closure: the package and the contract's runtime dependencies. */
const EXPECTED = ['ky', 'lunas-sdk', 'zod'];
const OPTIONAL_PEERS = /^(@(modelcontextprotocol|opentelemetry)\/|undici$)/;

const problems: string[] = [];
const consumer = installedConsumer(root);
const project = dirname(consumer.modules);
try {
  const tree = execFileSync('npm', ['ls', '--omit=dev', '--all'], { cwd: project, encoding: 'utf8' });
  console.log(`npm ls --omit=dev --all, in a fresh project after npm install of the tarball:\n${tree}`);
  const listed = JSON.parse(
    execFileSync('npm', ['ls', '--omit=dev', '--all', '--json'], { cwd: project, encoding: 'utf8' }),
  ) as Dependencies;
  const names = [...namesIn(listed)].sort();
  if (names.join() !== EXPECTED.join()) problems.push(`installed ${names.join(', ')}; expected ${EXPECTED.join(', ')}`);
  for (const name of names.filter((each) => OPTIONAL_PEERS.test(each))) {
    problems.push(`${name} is installed: an optional peer dependency must stay out of merchants' installs`);
  }

  // The entry points without the optional peers, as modules and as CommonJS.
  const loads = `
    const loaded = [];
    for (const name of ['lunas-sdk', 'lunas-sdk/testing']) loaded.push(Object.keys(await import(name)).length > 0);
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    for (const name of ['lunas-sdk', 'lunas-sdk/testing']) loaded.push(Object.keys(require(name)).length > 0);
    let mcp = 'loaded';
    try { await import('lunas-sdk/mcp'); } catch (error) { mcp = error.code + ': ' + error.message.split('\\n')[0]; }
    let otel = 'loaded';
    try { await import('lunas-sdk/otel'); } catch (error) { otel = error.code + ': ' + error.message.split('\\n')[0]; }
    let otelRequired = 'loaded';
    try { require('lunas-sdk/otel'); } catch (error) { otelRequired = error.code + ': ' + error.message.split('\\n')[0]; }
    const { undiciFetch } = await import('lunas-sdk/undici');
    const undici = await undiciFetch('http://127.0.0.1:9/').then(() => 'sent', (error) => error.message);
    console.log(JSON.stringify({ loaded, mcp, otel, otelRequired, undici }));
  `;
  const file = join(project, 'loads.mjs');
  writeFileSync(file, loads);
  const seen = JSON.parse(execFileSync(process.execPath, [file], { cwd: project, encoding: 'utf8' })) as {
    loaded: boolean[];
    mcp: string;
    otel: string;
    otelRequired: string;
    undici: string;
  };
  if (!seen.loaded.every(Boolean))
    problems.push(`lunas-sdk or lunas-sdk/testing did not load: ${JSON.stringify(seen)}`);
  if (!/^ERR_MODULE_NOT_FOUND: Cannot find package '@modelcontextprotocol\/server'/.test(seen.mcp)) {
    problems.push(`lunas-sdk/mcp without its peer dependency: expected ERR_MODULE_NOT_FOUND, got ${seen.mcp}`);
  }
  if (!/^ERR_MODULE_NOT_FOUND: Cannot find package '@opentelemetry\/api'/.test(seen.otel)) {
    problems.push(
      `lunas-sdk/otel without its peer dependency: expected ERR_MODULE_NOT_FOUND naming it, got ${seen.otel}`,
    );
  }
  if (!/^MODULE_NOT_FOUND: Cannot find module '@opentelemetry\/api'/.test(seen.otelRequired)) {
    problems.push(
      `require('lunas-sdk/otel') without its peer: expected MODULE_NOT_FOUND naming it, got ${seen.otelRequired}`,
    );
  }
  if (!seen.undici.includes('npm install undici')) {
    problems.push(`lunas-sdk/undici without its peer dependency: expected a message naming it, got ${seen.undici}`);
  }
  console.log(
    `import and require of lunas-sdk, lunas-sdk/testing: loaded; lunas-sdk/mcp: ${seen.mcp}; lunas-sdk/otel: ${seen.otel} (required: ${seen.otelRequired}); undiciFetch: ${seen.undici}`,
  );

  const command = spawnSync(join(consumer.modules, '.bin', 'lunas-mcp'), [], {
    cwd: project,
    encoding: 'utf8',
    input: '',
  });
  if (command.status !== 1 || !command.stderr.includes('npm install @modelcontextprotocol/server')) {
    problems.push(`lunas-mcp without its peer dependency: exit ${command.status}, ${command.stderr}`);
  }
  console.log(`lunas-mcp: exit ${command.status}, ${command.stderr.split('\n')[0]}`);
} finally {
  rmSync(consumer.directory, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`\n${problems.length} problem(s) with a merchant's install:`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log('install OK: lunas-sdk brings ky and zod alone, and loads without any optional peer');

interface Dependencies {
  /** Absent for an unmet optional peer dependency: listed (`UNMET OPTIONAL DEPENDENCY`), not installed. */
  version?: string;
  dependencies?: Record<string, Dependencies>;
}

/** Every installed package's name in an `npm ls --json` tree. */
function* namesIn(tree: Dependencies): Generator<string> {
  for (const [name, child] of Object.entries(tree.dependencies ?? {})) {
    if (child.version === undefined) continue;
    yield name;
    yield* namesIn(child);
  }
}
