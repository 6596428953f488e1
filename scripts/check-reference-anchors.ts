// CI gate, after `npm run docs`: each guide's headings in the built reference
// (docs/api/documents/) have GitHub's anchors, in order, so a link written for
// the repository host lands on the same heading in the reference, the links
// within a guide (`#heading`) included. typedoc's validation (typedoc.json)
// already fails on a link to a missing file and on an `#anchor` another page
// lacks; it leaves a guide's links to itself unchecked, and those hold here
// because scripts/check-anchors.ts checks them against GitHub's anchors.
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
for (const guide of readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'))) {
  const page = `documents/${guide.replace(/\.md$/, '.html')}`;
  if (!existsSync(join(reference, page))) continue; // not a project document
  const html = readFileSync(join(reference, page), 'utf8');
  const built = Array.from(html.matchAll(/<h[1-6] id="([^"]*)" class="tsd-anchor-link"/g), (match) => match[1]);
  headings(readFileSync(join(root, 'docs', guide), 'utf8')).forEach((heading, index) => {
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
console.log(`${checked} guide headings in ${relative(root, reference)} have GitHub's anchors`);
