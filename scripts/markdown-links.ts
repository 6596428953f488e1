// The links of a Markdown file, for the link checks (check-anchors.ts on the
// repository host, check-shipped-links.ts in the tarball): read from prose only,
// outside fenced blocks and code spans, in the forms this repository writes:
// inline links and images `[text](target "title")`, reference definitions
// `[name]: target`, and raw HTML's `<a href="target">` (api.md writes its links so,
// inside `<code>`). The Markdown of TSDoc comments in declaration files is read too.
import { outsideFences } from './docs/github-slugs.mjs';

const CODE_SPAN = /`+[^`]*`+/g;
const INLINE_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/;
const HTML_HREF = /<a\s[^>]*?\bhref\s*=\s*["']([^"']+)["']/gi;
/** A TSDoc comment, `/** … *\/`. */
const DOC_COMMENT = /\/\*\*[\s\S]*?\*\//g;
/** What opens and closes a comment, and the ` * ` before each of its lines. */
const COMMENT_MARKS = /^\s*\/\*\*\s?|\s*\*\/$|^\s*\*\s?/g;

/** A line of prose (1-based `line`), its code spans removed. */
export interface ProseLine {
  line: number;
  prose: string;
}

/** A link's target, with the line it is on. */
export interface MarkdownLink {
  line: number;
  target: string;
}

/** Every line outside fenced blocks (outsideFences, as the headings' scan), with its code spans removed. */
export function proseLines(markdown: string): ProseLine[] {
  return outsideFences(markdown).map(({ line, text }) => ({ line, prose: text.replace(CODE_SPAN, '') }));
}

/** Every link target in the prose of `markdown`. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const { line, prose } of proseLines(markdown)) {
    const definition = REFERENCE_DEFINITION.exec(prose)?.[1];
    if (definition !== undefined) links.push({ line, target: definition });
    for (const [, target] of prose.matchAll(INLINE_LINK)) if (target !== undefined) links.push({ line, target });
    for (const [, target] of prose.matchAll(HTML_HREF)) if (target !== undefined) links.push({ line, target });
  }
  return links;
}

/**
 * Every link target in the TSDoc comments of a declaration file (`.d.ts`), read
 * as Markdown once each comment line's ` * ` is removed, so a fenced example in a
 * comment is skipped; `line` is the file's.
 */
export function declarationLinks(declarations: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const comment of declarations.matchAll(DOC_COMMENT)) {
    const firstLine = declarations.slice(0, comment.index).split('\n').length;
    const markdown = comment[0]
      .split('\n')
      .map((text) => text.replace(COMMENT_MARKS, ''))
      .join('\n');
    for (const link of markdownLinks(markdown)) links.push({ line: firstLine + link.line - 1, target: link.target });
  }
  return links;
}
