// Shipped-links gate: every relative link in a Markdown file the package ships
// (README.md, CHANGELOG.md, SECURITY.md, docs/*.md) must resolve to a file the
// package ships, so the links work from node_modules/lunas-sdk/ and on the
// registry's page, where the repository is not beside them. Read from the
// `npm pack --dry-run` listing. Anchors (`#...`) are not checked here: the file
// part is what a tarball can break. One kind is told apart: a guide's link to a
// symbol of the API reference, `../src/x.ts#Name.member`, which the typedoc
// plugin turns into the symbol's page (and `npm run docs` fails on an unknown
// name). The package ships no source, so such a link must name its symbol
// (the `#` part), whose TSDoc a reader of node_modules finds in dist/*.d.ts.
// Run: npm run check:links
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { markdownLinks } from './markdown-links.js';
import { packListing, root } from './pack-listing.js';

/** A scheme (`https:`, `mailto:`) or a protocol-relative URL: not a file of the package. */
const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
/** A link to a symbol of the API reference, by its source file: `src/....ts#Name`. */
const REFERENCE_LINK = /^src\/[\w./-]+\.ts#[A-Za-z_$][\w$.]*$/;

const files = packListing().files.map((file) => file.path);
const packed = new Set(files);
const problems: string[] = [];
let checked = 0;
let references = 0;
for (const file of files.filter((name) => name.endsWith('.md'))) {
  for (const { line, target } of markdownLinks(readFileSync(path.join(root, file), 'utf8'))) {
    const [filePart = '', fragment = ''] = target.split('#', 2);
    if (filePart === '' || EXTERNAL.test(filePart)) continue;
    checked += 1;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(filePart)));
    if (REFERENCE_LINK.test(`${resolved}#${fragment}`)) {
      references += 1;
      continue;
    }
    if (!packed.has(resolved))
      problems.push(`${file}:${line}: ${target} → ${resolved}, which the package does not ship`);
  }
}

if (problems.length > 0) {
  console.error(`${problems.length} relative link(s) in the shipped Markdown lead nowhere in the package:`);
  for (const message of problems) console.error(`  - ${message}`);
  process.exit(1);
}
console.log(
  `shipped links OK: ${checked} relative links in ${files.filter((n) => n.endsWith('.md')).length} Markdown files resolve; ` +
    `${references} name a symbol of the API reference`,
);
