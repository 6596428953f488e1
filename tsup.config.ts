import { defineConfig } from 'tsup';

const libraryEntry = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
};
// The Node.js transport: a file of its own, which core/ky.ts imports on Node.js only (from the
// ESM and the CommonJS build alike), by a specifier no bundler follows.
const nodeTransport = { 'node-transport': 'src/core/node-transport.ts' };
const entry = { ...libraryEntry, ...nodeTransport, 'testing/cli': 'src/testing/cli/main.ts' };

export default defineConfig([
  {
    entry,
    format: ['esm'],
    // The CLI is a bin, not an import: it gets no declaration file.
    dts: { entry: libraryEntry },
    sourcemap: true,
    // No `clean`: tsup's declaration build would remove every .d.ts and .d.cts under dist/ when it
    // starts, whenever that is, taking another config's declarations written before it with them.
    // `npm run build` empties dist/ first instead.
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
]);
