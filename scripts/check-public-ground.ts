// Public ground, checked on what ships: every built file in dist/ (.js, .cjs,
// .d.ts, .d.cts) must reach its dependencies and the runtime only through their
// documented, exported API. It fails, naming the file, line and text, on an
// import, require or specifier string of a dependency's subpath that the
// dependency's package.json `exports` does not list (none at all when it has no
// `exports`), on a private symbol or field read, and on a function's source
// read. ESLint holds src/ to the same rules (eslint.config.js); this check also
// covers what tsup bundles in. Whatever a subpath's spelling in src/, what
// counts is the module a consumer's runtime loads, so the built files are read.
// Run after `npm run build`: npx tsx scripts/check-public-ground.ts
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One breach of the rule: the line it is on (1-based), the line's text, and what it breaks. */
export interface Breach {
  line: number;
  text: string;
  rule: string;
}

/** A `package.json` `exports` field, as the package ships it (absent when it has none). */
export type ExportsField = unknown;

/** Each dependency's name and its `exports` field. */
export type DependencyExports = Readonly<Record<string, ExportsField>>;

/** What is private whoever the dependency: found by its text alone. */
const PRIVATE_TEXT: readonly [RegExp, string][] = [
  [/Symbol\.for\(\s*['"`]undici\./, "undici's private symbol (Symbol.for('undici.…'))"],
  [/Function\.prototype\.toString/, "a function's source read (Function.prototype.toString)"],
  // Object.prototype.toString.call(value) is the documented type tag, not a source read;
  // Function.prototype's is reported once, above.
  [/(?<!(?:Object|Function)\.prototype)\.toString\.call\(/, "a function's source read (.toString.call)"],
  [/Object\.getOwnPropertySymbols\(/, "another object's symbol-keyed fields (Object.getOwnPropertySymbols)"],
  [/\._zod\./, "zod's internals (_zod)"],
  [/\$ZodObjectJIT/, "zod's compiled object parser ($ZodObjectJIT), not public API"],
  [/(?<![\w$])\$?Zod\w*\.init\b/, "a zod class's private constructor step (.init)"],
];

/**
 * Whether `subpath` (`./mini`, or `.` for the package itself) is one a
 * package's `exports` offers, by Node's rules: an exact key, or a key with
 * one `*` matching it, whose target is not `null`. A package with no
 * `exports` offers only its main entry.
 */
export function isExported(exportsField: ExportsField, subpath: string): boolean {
  if (subpath === '.') return true;
  if (typeof exportsField !== 'object' || exportsField === null || Array.isArray(exportsField)) return false;
  const entries = Object.entries(exportsField as Record<string, unknown>);
  // Conditions at the top level (`{ import, require }`) describe `.` only.
  if (!entries.some(([key]) => key.startsWith('.'))) return false;
  const exact = entries.find(([key]) => key === subpath);
  if (exact) return exact[1] !== null;
  // Of several patterns, Node takes the one with the longest prefix before `*`.
  const matching = entries
    .filter(([key]) => {
      const star = key.indexOf('*');
      if (star < 0 || key.indexOf('*', star + 1) >= 0) return false;
      const [prefix, suffix] = [key.slice(0, star), key.slice(star + 1)];
      return subpath.length >= key.length && subpath.startsWith(prefix) && subpath.endsWith(suffix);
    })
    .sort(([a], [b]) => b.indexOf('*') - a.indexOf('*'));
  return matching.length > 0 && matching[0]![1] !== null;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The breaches in one built file's text. A string literal naming a
 * dependency's subpath counts whether `import`, `require` or a helper loads
 * it: a specifier handed to a wrapper (`load('undici/lib/…')`) is loaded all the same.
 */
export function scanText(text: string, dependencies: DependencyExports): Breach[] {
  const breaches: Breach[] = [];
  const names = Object.keys(dependencies);
  const specifier =
    names.length === 0 ? undefined : new RegExp(`(['"\`])((${names.map(escaped).join('|')})/[^'"\`\\s]*)\\1`, 'g');
  text.split('\n').forEach((line, index) => {
    const breach = (rule: string) => breaches.push({ line: index + 1, text: line.trim().slice(0, 200), rule });
    for (const [pattern, rule] of PRIVATE_TEXT) if (pattern.test(line)) breach(rule);
    for (const [, , path, name] of specifier ? line.matchAll(specifier) : []) {
      const subpath = `.${path!.slice(name!.length)}`;
      if (!isExported(dependencies[name!], subpath)) {
        breach(`${path}: a subpath ${name}'s package.json "exports" does not offer`);
      }
    }
  });
  return breaches;
}

const BUILT = /\.(?:c?js|mjs|d\.c?ts|d\.mts)$/;

/** Every built file under `dir`, with its breaches; files with none are left out. */
export function scanDirectory(dir: string, dependencies: DependencyExports): { file: string; breaches: Breach[] }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => BUILT.test(file))
    .sort()
    .map((file) => ({ file, breaches: scanText(readFileSync(join(dir, file), 'utf8'), dependencies) }))
    .filter(({ breaches }) => breaches.length > 0);
}

/** The `exports` of each of the package's runtime dependencies, as installed in node_modules. */
export function installedExports(root: string): DependencyExports {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  return Object.fromEntries(
    names.map((name) => {
      const installed = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
        exports?: unknown;
      };
      return [name, installed.exports];
    }),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dist = join(root, 'dist');
  const found = scanDirectory(dist, installedExports(root));
  for (const { file, breaches } of found) {
    for (const { line, text, rule } of breaches) {
      console.error(`${relative(root, join(dist, file))}:${line}: ${rule}\n    ${text}`);
    }
  }
  if (found.length > 0) {
    console.error(
      '\nlunas uses its dependencies and the runtime through their public API only (docs/decisions/0004-public-ground.md).',
    );
    process.exit(1);
  }
  console.log('public ground: no private import, symbol or source read in dist/');
}
