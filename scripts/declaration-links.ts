// Build step after tsup (`npm run build`): the TSDoc of src/core/ and src/resources/
// links its guide as `../../docs/x.md`, right from those folders (typedoc resolves it
// there), but tsup bundles that TSDoc into dist/index.d.ts and dist/index.d.cts, one
// folder below the package root, where such a link leaves the package. There the
// guides are `../docs/x.md`, as src/*.ts writes them already. So for dist/mcp.d.ts and
// dist/mcp.d.cts, from src/mcp/. dist/testing/ sits two folders down, like src/testing/,
// so its declarations are left as they are.
// npm run check:links fails on a declaration link that leads nowhere in the package.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROOT_DECLARATIONS = ['dist/index.d.ts', 'dist/index.d.cts', 'dist/mcp.d.ts', 'dist/mcp.d.cts'];
/** A Markdown link's target that climbs out of the package to its guides. */
const GUIDE_LINK_TWO_UP = /\]\(\.\.\/\.\.\/docs\//g;

for (const file of ROOT_DECLARATIONS) {
  const where = path.join(root, file);
  const text = readFileSync(where, 'utf8');
  const rewritten = text.replace(GUIDE_LINK_TWO_UP, '](../docs/');
  if (rewritten !== text) writeFileSync(where, rewritten);
  const count = text.match(GUIDE_LINK_TWO_UP)?.length ?? 0;
  console.log(`${file}: ${count} guide link(s) now relative to dist/`);
}
