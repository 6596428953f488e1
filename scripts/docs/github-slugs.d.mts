// Types of github-slugs.mjs, for the TypeScript scripts that import it.
export declare function outsideFences(markdown: string): { line: number; text: string }[];
export declare function headings(markdown: string): { line: number; text: string; slug: string }[];
