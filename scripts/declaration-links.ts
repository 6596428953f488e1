// Build step after tsup (`npm run build`): TSDoc links its guide relative to the source file
// (typedoc resolves it there): `../../docs/x.md` from src/resources/ and src/<entry>/,
// `../../../docs/x.md` from src/core/<stage>/. tsup bundles that TSDoc into declaration files
// whose depth differs: dist/index.d.ts, dist/index.d.cts, dist/mcp.d.ts and dist/mcp.d.cts sit
// one folder below the package root, where the guides are `../docs/x.md` (as src/*.ts writes
// them already); dist/otel/, dist/undici/ and dist/testing/ sit two down, where they are
// `../../docs/x.md`. Each guide link is rewritten to its file's depth.
// npm run check:links fails on a declaration link that leads nowhere in the package.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Each declaration file, and the way up from it to the package root. */
const DECLARATIONS: [string, string][] = [
  ...['dist/index.d.ts', 'dist/index.d.cts', 'dist/mcp.d.ts', 'dist/mcp.d.cts'].map(
    (file) => [file, '../'] as [string, string],
  ),
  ...['otel', 'undici', 'testing'].flatMap((folder) =>
    ['index.d.ts', 'index.d.cts'].map((name) => [`dist/${folder}/${name}`, '../../'] as [string, string]),
  ),
];
/** A Markdown link's target that climbs to the guides, from any depth of src/. */
const GUIDE_LINK = /\]\((?:\.\.\/){1,3}docs\//g;

for (const [file, up] of DECLARATIONS) {
  const where = path.join(root, file);
  if (!existsSync(where)) continue;
  const text = readFileSync(where, 'utf8');
  let count = 0;
  const rewritten = text.replace(GUIDE_LINK, (link) => {
    const target = `](${up}docs/`;
    if (link !== target) count++;
    return target;
  });
  if (rewritten !== text) writeFileSync(where, rewritten);
  console.log(`${file}: ${count} guide link(s) now relative to its folder`);
}
