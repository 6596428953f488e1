// CI gate: every link in README.md, CONTRIBUTING.md, docs/*.md and docs/decisions/*.md
// that names a local file or an anchor resolves on the repository host. Anchors are GitHub's heading slugs
// (scripts/docs/github-slugs.mjs), which the built reference uses too (the
// typedoc plugin in scripts/docs/typedoc-plugin.mjs). Fails on a link to a file
// that does not exist, an `#anchor` its target has no heading for, and a bare
// `name.md` that a Markdown renderer would turn into a web address. (remark-validate-links
// reads the Markdown links, but neither raw-HTML hrefs nor bare file names.)
// Run: npx tsx scripts/check-anchors.ts
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { headings } from './docs/github-slugs.mjs';
import { markdownLinks, proseLines } from './markdown-links.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const markdownIn = (folder: string): string[] =>
  readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `${folder}/${name}`);
/** The shipped guides, and the maintainers' map and decision records, which link into them. */
const guides = ['README.md', 'CONTRIBUTING.md', ...markdownIn('docs'), ...markdownIn('docs/decisions')];

/** Bare file names a renderer's linkify would send to `http://name.md`. */
function bareFileNames(markdown: string): { line: number; name: string }[] {
  const found: { line: number; name: string }[] = [];
  for (const { line, prose } of proseLines(markdown)) {
    const text = prose.replace(/\[[^\]]*\]\([^)]*\)/g, '');
    for (const match of text.matchAll(/(?<![\w/.-])[\w-]+\.md\b/g)) found.push({ line, name: match[0] });
  }
  return found;
}

const anchorsByFile = new Map<string, Set<string>>();
/** A guide's heading anchors, read and slugged once however many links name it. */
function anchorsOf(file: string): Set<string> {
  let anchors = anchorsByFile.get(file);
  if (anchors === undefined) {
    anchors = new Set(headings(readFileSync(join(root, file), 'utf8')).map((h) => h.slug));
    anchorsByFile.set(file, anchors);
  }
  return anchors;
}
const problems: string[] = [];
let checked = 0;
for (const file of guides) {
  const markdown = readFileSync(join(root, file), 'utf8');
  for (const { line, target } of markdownLinks(markdown)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // a web address or mailto:
    checked++;
    const [path = '', anchor] = target.split('#', 2);
    const targetFile = path === '' ? file : relative(root, resolve(root, dirname(file), decodeURI(path)));
    if (!existsSync(join(root, targetFile))) {
      problems.push(`${file}:${line}: ${target}: no file ${targetFile}`);
      continue;
    }
    if (anchor !== undefined && targetFile.endsWith('.md') && !anchorsOf(targetFile).has(anchor)) {
      problems.push(`${file}:${line}: ${target}: ${targetFile} has no heading #${anchor}`);
    }
  }
  for (const { line, name } of bareFileNames(markdown)) {
    problems.push(
      `${file}:${line}: ${name}: a bare file name becomes http://${name}; link it or put it in a code span`,
    );
  }
}
if (problems.length > 0) {
  console.error(
    `${problems.length} broken link(s) in README.md, CONTRIBUTING.md, docs/*.md and docs/decisions/*.md:\n${problems.join('\n')}`,
  );
  process.exit(1);
}
console.log(`${checked} local links and anchors in ${guides.length} guides resolve on the repository host`);
