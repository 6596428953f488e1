// Shipped-links gate: every relative link in a file the package ships must
// resolve to a file the package ships, so the links work from
// node_modules/lunas-sdk/ and on the registry's page, where the repository is not
// beside them. Read from the `npm pack --dry-run` listing: the Markdown files
// (README.md, api.md, CHANGELOG.md, SECURITY.md, docs/*.md; Markdown links and
// raw-HTML hrefs) and the TSDoc of the declaration files (dist/**/*.d.ts and
// .d.cts, which an editor shows on hover; see scripts/declaration-links.ts).
// Anchors (`#...`) are not checked here: the file part is what a tarball can break.
// One kind is told apart: a link to a symbol by its source file,
// `../src/x.ts#Name.member`, which the typedoc plugin turns into the symbol's page
// (and `npm run docs` fails on an unknown name). Its `#` part names a symbol, not
// a heading: the file must be shipped (the package ships src/) and declare `Name`.
// Run: npm run check:links
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { declarationLinks, type MarkdownLink, markdownLinks } from './markdown-links.js';
import { packListing, root } from './pack-listing.js';

/** A scheme (`https:`, `mailto:`) or a protocol-relative URL: not a file of the package. */
const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
/** A source file of the package; a `#` after it names a symbol it declares. */
const SOURCE_FILE = /^src\/[\w./-]+\.ts$/;
const SYMBOL = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
const DECLARATION_FILE = /\.d\.c?ts$/;

const files = packListing().files.map((file) => file.path);
const packed = new Set(files);
const texts = new Map<string, string>();
/** A shipped file's text, read once however many symbol links name it. */
function read(file: string): string {
  let text = texts.get(file);
  if (text === undefined) {
    text = readFileSync(path.join(root, file), 'utf8');
    texts.set(file, text);
  }
  return text;
}
/** Whether `source` declares `name` at its top level (exported or not: the index re-exports). */
const declares = (source: string, name: string): boolean =>
  new RegExp(
    `^(export )?(declare )?(abstract |async )?(class|interface|type|function|const|enum) ${name}\\b`,
    'm',
  ).test(read(source));

const problems: string[] = [];
const checked = { markdown: 0, declarations: 0, symbols: 0 };

function checkLinks(file: string, links: MarkdownLink[], kind: 'markdown' | 'declarations'): void {
  for (const { line, target } of links) {
    const [filePart = '', fragment = ''] = target.split('#', 2);
    if (filePart === '' || EXTERNAL.test(filePart)) continue;
    checked[kind] += 1;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(filePart)));
    if (!packed.has(resolved)) {
      problems.push(`${file}:${line}: ${target} → ${resolved}, which the package does not ship`);
      continue;
    }
    if (!SOURCE_FILE.test(resolved) || fragment === '') continue;
    checked.symbols += 1;
    const name = fragment.split('.')[0] ?? '';
    if (!SYMBOL.test(fragment) || !declares(resolved, name))
      problems.push(`${file}:${line}: ${target}: ${resolved} declares no ${name}`);
  }
}

const markdownFiles = files.filter((name) => name.endsWith('.md'));
const declarationFiles = files.filter((name) => DECLARATION_FILE.test(name));
for (const file of markdownFiles) checkLinks(file, markdownLinks(read(file)), 'markdown');
for (const file of declarationFiles) checkLinks(file, declarationLinks(read(file)), 'declarations');

if (problems.length > 0) {
  console.error(`${problems.length} relative link(s) in the shipped files lead nowhere in the package:`);
  for (const message of problems) console.error(`  - ${message}`);
  process.exit(1);
}
console.log(
  `shipped links OK: ${checked.markdown} relative links in ${markdownFiles.length} Markdown files and ` +
    `${checked.declarations} in the TSDoc of ${declarationFiles.length} declaration files resolve; ` +
    `${checked.symbols} name a symbol their source file declares`,
);
