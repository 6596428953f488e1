/**
 * Merchants who never serve MCP never install @modelcontextprotocol/server
 * (an optional peer dependency), so `lunas-sdk` and `lunas-sdk/testing` must
 * neither import it nor need it: with every @modelcontextprotocol/* package
 * resolving as a missing one (test/mcp/hide-mcp-packages.mjs), both load and
 * make a call, and only `lunas-sdk/mcp` fails, naming the package.
 * scripts/check-install.ts holds the same on the packed tarball in a fresh project.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const PROGRAM = `
const { Client } = await import('./src/index.ts');
const { startSandbox } = await import('./src/testing/index.ts');
const sandbox = await startSandbox();
const client = new Client({ baseURL: sandbox.url, apiKey: sandbox.apiKey });
const charge = await client.charges.create({ payment_method: 'qris', amount: 1000 });
await sandbox.close();
let mcp = 'loaded';
try {
  await import('./src/mcp/index.ts');
} catch (error) {
  mcp = error.code + ': ' + error.message;
}
console.log(JSON.stringify({ status: charge.status, mcp }));
`;

it('lunas-sdk and lunas-sdk/testing load and call without any MCP package; lunas-sdk/mcp names the one it needs', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', './test/mcp/hide-mcp-packages.mjs', '--input-type=module', '--eval', PROGRAM],
    { cwd: ROOT },
  );
  const seen = JSON.parse(stdout) as { status: string; mcp: string };
  expect(seen.status).toBe('pending');
  expect(seen.mcp).toMatch(/^ERR_MODULE_NOT_FOUND: Cannot find package '@modelcontextprotocol\/server'/);
}, 30_000);
