// CI gate, after `npm run docs`: the headings of README (the reference's
// index.html) and of each guide (documents/) have GitHub's anchors in the built
// reference, in order, so a link written for the repository host lands on the
// same heading in the reference, the links within a page (`#heading`) included.
// typedoc's validation (typedoc.json) already fails on a link to a missing file
// and on an `#anchor` another page lacks; it leaves a page's links to itself
// unchecked, and those hold here because `npm run check:links` (remark-validate-links)
// checks them against GitHub's anchors.
// Run: npx tsx scripts/check-reference-anchors.ts [reference dir]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { headings } from './docs/github-slugs.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const reference = resolve(root, process.argv[2] ?? 'docs/api');
if (!existsSync(join(reference, 'index.html'))) {
  console.error(`${relative(root, reference)}/index.html is missing: run npm run docs first`);
  process.exit(1);
}

const problems: string[] = [];
let checked = 0;
const pages: [markdown: string, page: string][] = [
  ['README.md', 'index.html'],
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name): [string, string] => [`docs/${name}`, `documents/${name.replace(/\.md$/, '.html')}`]),
];
for (const [markdown, page] of pages) {
  if (!existsSync(join(reference, page))) continue; // not a project document
  const html = readFileSync(join(reference, page), 'utf8');
  const built = Array.from(html.matchAll(/<h[1-6] id="([^"]*)" class="tsd-anchor-link"/g), (match) => match[1]);
  headings(readFileSync(join(root, markdown), 'utf8')).forEach((heading, index) => {
    checked++;
    if (built[index] !== heading.slug) {
      problems.push(`${page}: heading "${heading.text}" is #${built[index]} here, #${heading.slug} on GitHub`);
    }
  });
}

if (problems.length > 0) {
  console.error(`${problems.length} heading anchor(s) of ${relative(root, reference)} differ from GitHub's:`);
  for (const message of problems) console.error(`  - ${message}`);
  process.exit(1);
}
console.log(`${checked} headings of README and the guides in ${relative(root, reference)} have GitHub's anchors`);
