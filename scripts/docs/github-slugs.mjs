// GitHub's heading anchors, computed the way it renders Markdown: shared by the
// guides' anchor check (check-anchors.ts) and the typedoc plugin, so a link
// like `docs/x.md#some-heading` lands on the same heading on GitHub and in the
// built reference. Plain JavaScript because typedoc loads plugins with
// `import()`, without a TypeScript loader, on Node 20.

// GitHub keeps letters, marks, digits, `_`, `-` and spaces, and drops the rest.
const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc} -]/gu;

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
 * The ATX headings of a Markdown file (fenced code blocks skipped), with their
 * GitHub anchors.
 * @param {string} markdown
 * @returns {{ line: number, text: string, slug: string }[]}
 */
export function headings(markdown) {
  const slugs = new GithubSlugs();
  const found = [];
  let fence;
  markdown.split('\n').forEach((line, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    const heading = fence === undefined && /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!heading) return;
    const text = headingText(heading[1]);
    found.push({ line: index + 1, text, slug: slugs.next(text) });
  });
  return found;
}
