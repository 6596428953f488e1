// CI gate, after `npm run docs`: the built reference (docs/api) has no broken
// link. Every href to a local file names a file that exists, every #fragment
// names an id in its target page, and no link points at a web address that is
// really a file name (a bare `CHANGELOG.md` once became http://CHANGELOG.md).
// Each guide's heading ids are GitHub's slugs of the same headings, so a link
// written for the repository host lands on the same heading here.
// Run: npx tsx scripts/check-reference-links.ts [reference dir]
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

const pages = readdirSync(reference, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.html'));
const idsOf = new Map<string, Set<string>>();
function ids(file: string): Set<string> {
  let found = idsOf.get(file);
  if (found === undefined) {
    const html = readFileSync(join(reference, file), 'utf8');
    found = new Set(Array.from(html.matchAll(/\s(?:id|name)="([^"]*)"/g), (match) => decodeEntities(match[1]!)));
    idsOf.set(file, found);
  }
  return found;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

const problems: string[] = [];
let links = 0;
for (const page of pages) {
  const html = readFileSync(join(reference, page), 'utf8');
  for (const match of html.matchAll(/\shref="([^"]*)"/g)) {
    const href = decodeEntities(match[1]!);
    const web = /^([a-z][a-z+.-]*):(?:\/\/([^/?#]*))?/i.exec(href);
    if (web) {
      if (/\.(md|ts|js|json)$/i.test(web[2] ?? ''))
        problems.push(`${page}: ${href}: a file name made into a web address`);
      continue;
    }
    links++;
    const [path = '', fragment] = href.split('#', 2);
    const target = path === '' ? page : relative(reference, resolve(reference, dirname(page), decodeURI(path)));
    if (!existsSync(join(reference, target))) {
      problems.push(`${page}: ${href}: no file ${target}`);
    } else if (fragment && target.endsWith('.html') && !ids(target).has(decodeURIComponent(fragment))) {
      problems.push(`${page}: ${href}: ${target} has no #${fragment}`);
    }
  }
}

// The guides' headings: GitHub's anchors, in order, on their reference pages.
for (const guide of readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'))) {
  const page = `documents/${guide.replace(/\.md$/, '.html')}`;
  if (!existsSync(join(reference, page))) continue; // not a project document
  const html = readFileSync(join(reference, page), 'utf8');
  const built = Array.from(html.matchAll(/<h[1-6] id="([^"]*)" class="tsd-anchor-link"/g), (match) => match[1]);
  headings(readFileSync(join(root, 'docs', guide), 'utf8')).forEach((heading, index) => {
    if (built[index] !== heading.slug) {
      problems.push(`${page}: heading "${heading.text}" is #${built[index]} here, #${heading.slug} on GitHub`);
    }
  });
}

if (problems.length > 0) {
  console.error(
    `${problems.length} broken link(s) or anchor(s) in ${relative(root, reference)}:\n${problems.join('\n')}`,
  );
  process.exit(1);
}
console.log(
  `${links} local links in ${pages.length} pages of ${relative(root, reference)} resolve; guide anchors match GitHub's`,
);
