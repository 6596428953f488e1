import { rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

// dist/ is emptied once, here, before any build starts, instead of by tsup's `clean`: that also
// deletes every declaration file in dist/ when its config's declaration build starts, which runs
// beside the other configs' builds, so a slow one deleted what a faster one had written
// (dist/testing/index.d.cts, once lunas-sdk/mcp made the first config's slower).
rmSync('dist', { recursive: true, force: true });

const libraryEntry = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
};
const entry = { ...libraryEntry, 'testing/cli': 'src/testing/cli/main.ts' };

// lunas-sdk/mcp and the lunas-mcp command, built apart: @modelcontextprotocol/server, an optional
// peer dependency, stays external (only these files import it), and sharing the SDK's chunks
// would split them where the MCP files' imports fall, exporting zod's namespace across chunks
// (every merchant's bundle would then keep all of zod). So these builds carry their own copy of
// the SDK's modules, and `lunas-sdk` is built as if they did not exist.
const mcpEntry = { mcp: 'src/mcp/index.ts' };
const mcpCli = { 'mcp/cli': 'src/mcp/cli/main.ts' };

export default defineConfig([
  {
    entry,
    format: ['esm'],
    // The CLI is a bin, not an import: it gets no declaration file.
    dts: { entry: libraryEntry },
    sourcemap: true,
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
    // lunas-sdk/otel, ESM and CommonJS, each file whole: sharing chunks with the SDK's ESM build
    // would cut those chunks differently and add to what `import { Client }` bundles. Its few
    // core modules (the channels' names, the option checks) are copied in; @opentelemetry/api,
    // an optional peer dependency, stays an import, so `import 'lunas-sdk'` never loads it.
    entry: { 'otel/index': 'src/otel/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    treeshake: true,
  },
  {
    // lunas-sdk/undici, ESM and CommonJS, each one file importing nothing of the SDK: undici, an
    // optional peer dependency, stays an import, so only a merchant who imports this entry loads it.
    entry: { 'undici/index': 'src/undici/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    treeshake: true,
    removeNodeProtocol: false,
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
    entry: { ...mcpEntry, ...mcpCli },
    format: ['esm'],
    dts: { entry: mcpEntry },
    sourcemap: true,
    target: 'node20',
    splitting: true,
    treeshake: true,
    // The command starts its own sandbox (lunas-sdk/testing's modules, bundled in as above).
    removeNodeProtocol: false,
    noExternal: ['uqr'],
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
