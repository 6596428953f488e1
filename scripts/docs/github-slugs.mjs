// GitHub's heading anchors of a Markdown file (the slugs are github-slugger's,
// GitHub's own rule, which remark-validate-links checks the guides' links with):
// used by the typedoc plugin and check-reference-anchors.ts, so a link like
// `docs/x.md#some-heading` lands on the same heading on GitHub and in the built
// reference; and the one scan of fenced code blocks (outsideFences), which
// llms-txt.ts reads prose with. Plain JavaScript because
// typedoc loads plugins with `import()`, without a TypeScript loader, on Node 20.
import GithubSlugger from 'github-slugger';

/** A fence's marker: three or more backticks or tildes, indented at most three spaces. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A Markdown heading's text as GitHub shows it: code spans keep their text,
 * links their label, emphasis and HTML tags go.
 * @param {string} markdown the heading line without its `#` marks
 * @returns {string}
 */
function headingText(markdown) {
  return markdown
    .split(/(`+[^`]*`+)/)
    .map((part, index) =>
      index % 2 === 1
        ? part.replace(/^`+\s?|\s?`+$/g, '')
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/<[^>]+>/g, '')
            .replace(/\*+|~~|(^|\W)_+|_+(?=\W|$)/g, '$1'),
    )
    .join('');
}

/**
 * The lines of a Markdown file outside its fenced code blocks, fences left out.
 * A block closes only on a marker of the character that opened it, at least as
 * long (CommonMark's rule), so a ```` block can show a ``` fence.
 * @param {string} markdown
 * @returns {{ line: number, text: string }[]} each line with its 1-based number
 */
export function outsideFences(markdown) {
  const lines = [];
  let fence;
  markdown.split('\n').forEach((text, index) => {
    const marker = FENCE.exec(text)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) lines.push({ line: index + 1, text });
  });
  return lines;
}

/**
 * The ATX headings of a Markdown file (fenced code blocks skipped), with their
 * GitHub anchors.
 * @param {string} markdown
 * @returns {{ line: number, text: string, slug: string }[]}
 */
export function headings(markdown) {
  const slugs = new GithubSlugger();
  const found = [];
  for (const { line, text: source } of outsideFences(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(source);
    if (!heading) continue;
    const text = headingText(heading[1]);
    found.push({ line, text, slug: slugs.slug(text) });
  }
  return found;
}
