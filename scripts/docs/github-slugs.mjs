// GitHub's heading anchors, computed the way it renders Markdown: shared by the
// guides' anchor check (check-anchors.ts) and the typedoc plugin, so a link
// like `docs/x.md#some-heading` lands on the same heading on GitHub and in the
// built reference; and the one scan of fenced code blocks (outsideFences), which
// the link checks' markdown-links.ts reads prose with. Plain JavaScript because
// typedoc loads plugins with `import()`, without a TypeScript loader, on Node 20.

// GitHub keeps letters, marks, digits, `_`, `-` and spaces, and drops the rest.
const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc} -]/gu;
/** A fence's marker: three or more backticks or tildes, indented at most three spaces. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * One heading's anchor, before duplicates are numbered.
 * @param {string} text the heading's text as shown (code spans keep their text)
 * @returns {string}
 */
export function githubSlug(text) {
  return text.trim().toLowerCase().replace(DROPPED, '').replace(/ /g, '-');
}

/**
 * The anchors of one page, in order: the second heading with a slug gets `-1`,
 * the third `-2`, and so on.
 */
export class GithubSlugs {
  #seen = new Map();

  /**
   * @param {string} text the heading's text as shown
   * @returns {string} its anchor on this page
   */
  next(text) {
    const base = githubSlug(text);
    let slug = base;
    let count = this.#seen.get(base) ?? 0;
    while (this.#seen.has(slug)) slug = `${base}-${++count}`;
    this.#seen.set(base, count);
    if (slug !== base) this.#seen.set(slug, 0);
    return slug;
  }

  /**
   * @param {string} slug
   * @returns {boolean} whether a heading of this page has that anchor
   */
  has(slug) {
    return this.#seen.has(slug);
  }

  /** @returns {string[]} every anchor of this page */
  all() {
    return [...this.#seen.keys()];
  }
}

/**
 * A Markdown heading's text as GitHub shows it: code spans keep their text,
 * links their label, emphasis and HTML tags go.
 * @param {string} markdown the heading line without its `#` marks
 * @returns {string}
 */
export function headingText(markdown) {
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
  const slugs = new GithubSlugs();
  const found = [];
  for (const { line, text: source } of outsideFences(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(source);
    if (!heading) continue;
    const text = headingText(heading[1]);
    found.push({ line, text, slug: slugs.next(text) });
  }
  return found;
}
