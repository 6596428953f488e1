// Public ground on what ships (`npm run check:ground`, after the build): ESLint over dist/ with
// the rules eslint.config.js holds src/ to, so the code tsup bundles in (ky, in the CommonJS
// build) and the declarations tsc writes (a type named by its file, `import('zod/v4/core/…')`)
// are held too. Nothing else is checked here: built code is not written to be linted.
import tseslint from 'typescript-eslint';
import { publicGround } from './eslint.config.js';

export default [
  {
    files: ['dist/**/*.{js,cjs,mjs}', 'dist/**/*.d.{ts,cts,mts}'],
    languageOptions: { parser: tseslint.parser },
    // A bundled dependency's own directives name rules not loaded here; and none may turn these off.
    linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
    rules: publicGround(),
  },
];
