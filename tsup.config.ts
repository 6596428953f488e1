import { defineConfig } from 'tsup';

const libraryEntry = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
};
// The Node.js transport: a file of its own, which core/ky.ts imports on Node.js only (from the
// ESM and the CommonJS build alike), by a specifier no bundler follows.
const nodeTransport = { 'node-transport': 'src/core/node-transport.ts' };
// lunas-sdk/mcp and the lunas-mcp command: @modelcontextprotocol/server, an optional peer
// dependency, stays external (only these files import it), so `lunas-sdk` never loads it.
// dist/mcp.js and dist/mcp.cjs sit beside dist/node-transport.js, which the SDK's modules
// bundled into the CommonJS build import as './node-transport.js'.
const mcpEntry = { mcp: 'src/mcp/index.ts' };
const mcpCli = { 'mcp/cli': 'src/mcp/cli/main.ts' };
const entry = { ...libraryEntry, ...nodeTransport, 'testing/cli': 'src/testing/cli/main.ts', ...mcpEntry, ...mcpCli };

export default defineConfig([
  {
    entry,
    format: ['esm'],
    // The CLIs are bins, not imports: they get no declaration file.
    dts: { entry: { ...libraryEntry, ...mcpEntry } },
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: true,
    treeshake: true,
    // `node:http`, not `http`: Workers bundlers (wrangler) leave a `node:` import to the
    // runtime, so a Worker that uses only createSandbox bundles without nodejs_compat.
    removeNodeProtocol: false,
    // uqr draws the sandbox page's QR code: bundled, so merchants' installs keep ky and zod alone.
    noExternal: ['uqr'],
  },
  {
    // ky ships ESM only. Bundling it into the CommonJS build lets `require('lunas-sdk')`
    // work on every Node 20 release, not only on 20.19+ where require(esm) exists.
    entry: { index: libraryEntry.index },
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    noExternal: ['ky', 'uqr'],
    treeshake: true,
  },
  {
    // Split, so the node:http server is a chunk that startSandbox requires when called:
    // unsplit, esbuild hoists require('http') to the top, and createSandbox could not
    // load where there is no node:http.
    entry: { 'testing/index': libraryEntry['testing/index'] },
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    splitting: true,
    treeshake: true,
    removeNodeProtocol: false,
    noExternal: ['ky', 'uqr'],
  },
  {
    // lunas-sdk/mcp for require(): the SDK's modules bundled in as the main CommonJS build
    // bundles them (ky included); the MCP packages, which ship CommonJS too, are required.
    entry: mcpEntry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    treeshake: true,
    noExternal: ['ky'],
  },
]);
