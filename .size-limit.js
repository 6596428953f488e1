// The bundle-size ratchet (`npm run size`, in .ci/run after the build): what
// `import { Client } from 'lunas-sdk'` adds to a merchant's bundle, bundled by
// esbuild as bench/bundle.ts bundles it (ES module, minified, platform neutral
// since the SDK also runs on Bun, Deno and edge runtimes, Node's built-ins left
// out), then gzip -9. size-limit takes off the few bytes an empty bundle with one
// import weighs. Raise the limit only deliberately, saying why in the commit
// (docs/performance.md, "Bundle size").
import { builtinModules } from 'node:module';

export default [
  {
    name: "import { Client } from 'lunas-sdk'",
    path: 'dist/index.js',
    import: '{ Client }',
    gzip: true,
    limit: '34427 B',
    modifyEsbuildConfig: (config) => ({
      ...config,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      external: [...builtinModules, 'node:*'],
    }),
  },
];
