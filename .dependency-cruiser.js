// The import layers of src/, checked by dependency-cruiser in .ci/run:
//   npx depcruise src --config .dependency-cruiser.js
// Every import counts: `import type` and `export … from` too (a circle of types alone still
// ties the modules' order together), `import()` and `typeof import()`. Paths are resolved as
// tsconfig.json resolves them (`./x.js` is `x.ts`; `lunas-sdk` is src/index.ts).
//
// src/core is housed by the stage a call passes through, each stage importing only the stages
// below it and core's top (types.ts, runtime.ts, which import no stage):
//   report ← checks ← wire ← lists ← call
// report/ (errors, masking, words for messages, log, events, tracing), checks/ (options,
// parameters, money in), wire/ (ky over fetch, the envelope and the redirect rules), lists/
// (pages, walks, since, toArray), call/ (the request primitive, the retry loop and its queue,
// the retry policy, one attempt). Each folder's README.md says the same for its stage.

/** A stage of src/core and the stages above it, which it must not import. */
const STAGES = ['report', 'checks', 'wire', 'lists', 'call'];

/** One rule per stage: nothing from a stage above it. */
const stageRules = STAGES.slice(0, -1).map((stage, index) => ({
  name: `core-${stage}-imports-no-higher-stage`,
  comment:
    `src/core/${stage} imports no module of a stage above it (${STAGES.slice(index + 1).join(', ')}): ` +
    `the stages import one way, ${STAGES.join(' ← ')} (docs/decisions/0031-core-import-floors.md)`,
  severity: 'error',
  from: { path: `^src/core/${stage}/` },
  to: { path: `^src/core/(${STAGES.slice(index + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import circle in src/, types-only imports included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...stageRules,
    {
      name: 'core-top-imports-no-stage',
      comment: "src/core's top (types.ts, runtime.ts) is below every stage: it imports none",
      severity: 'error',
      from: { path: '^src/core/[^/]+$' },
      to: { path: `^src/core/(${STAGES.join('|')})/` },
    },
    {
      name: 'core-no-unknown-stage',
      comment: `a folder of src/core is one of the stages (${STAGES.join(', ')}): a new one gets its rules here first`,
      severity: 'error',
      from: { path: '^src/core/[^/]+/', pathNot: `^src/core/(${STAGES.join('|')})/` },
      to: {},
    },
    {
      name: 'core-imports-only-core-and-shared',
      comment:
        'src/core imports no resource, client or entry point (src/resources import core, never the reverse); of src/ only core and src/shared',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/(core|shared)/' },
    },
    {
      name: 'shared-imports-nothing',
      comment: 'src/shared is imported by the SDK and the sandbox alike, so it imports nothing (no package either)',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { pathNot: '^src/shared/' },
    },
    {
      name: 'testing-imports-no-sdk',
      comment: 'the sandbox (src/testing) never imports the SDK: what both need goes in src/shared',
      severity: 'error',
      from: { path: '^src/testing/' },
      to: { path: '^src/', pathNot: '^src/(testing/|shared/|version\\.ts$)' },
    },
    {
      name: 'otel-imports-only-the-channels',
      comment:
        'lunas-sdk/otel subscribes to the tracing channels: it reads their contexts and checks its options, and never calls',
      severity: 'error',
      from: { path: '^src/otel/' },
      to: {
        path: '^src/',
        pathNot:
          '^src/(otel/|version\\.ts$|core/report/(tracing|errors|describe-value)\\.ts$|core/checks/options\\.ts$)',
      },
    },
    {
      name: 'undici-imports-no-sdk',
      comment: 'lunas-sdk/undici is a fetch of its own, built apart: it imports nothing of the SDK',
      severity: 'error',
      from: { path: '^src/undici/' },
      to: { path: '^src/', pathNot: '^src/undici/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
