// Types of github-slugs.mjs, for the TypeScript scripts that import it.
export declare function githubSlug(text: string): string;
export declare class GithubSlugs {
  next(text: string): string;
  has(slug: string): boolean;
  all(): string[];
}
export declare function headingText(markdown: string): string;
export declare function outsideFences(markdown: string): { line: number; text: string }[];
export declare function headings(markdown: string): { line: number; text: string; slug: string }[];
