// Pack-contents gate, on what `npm pack` would ship: only dist/, the source (src/**/*.ts: api.md
// and the guides link to it, the source maps name it, and there is no public repository to link
// to yet; and its folders' README.md), the guides (docs/*.md, not the built reference in
// docs/api/) and their images, the examples, and the top-level files below, each present; no
// test or other file; no source map pointing at a file neither packed nor embedded
// (`sourcesContent`); nothing that looks like a secret; no relative link in the declarations'
// TSDoc or api.md's hrefs to a file not packed; package.json's `repository`, `homepage` and
// `bugs` all absent (no public URL yet) or all naming one repository. That each file
// package.json points at is packed, publint and attw check (scripts/check-package.sh).
// Run after `npm run build`: npm run check:pack
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const TOP_LEVEL = ['README.md', 'llms.txt', 'api.md', 'CHANGELOG.md', 'SECURITY.md', 'LICENSE', 'package.json'];
/** Shipped beside dist/: the source, and one directory level of docs/ and examples/, so docs/api/ stays out. */
const SHIPPED_DIRECTORIES: [RegExp, string][] = [
  [/^src\/(?:[\w-]+\/)*[\w.-]+\.ts$/, 'src/**/*.ts'],
  // A folder's README.md beside its source (src/core's stages): npm packs a README wherever it is.
  [/^src\/(?:[\w-]+\/)+README\.md$/, 'src/**/README.md'],
  [/^docs\/[^/]+\.md$/, 'docs/*.md'],
  // The guides' pictures (docs/sandbox.md shows the sandbox's page): a relative link must find them in the package.
  [/^docs\/images\/[^/]+\.png$/, 'docs/images/*.png'],
  [/^examples\/[^/]+\.ts$/, 'examples/*.ts'],
];
const isShippedSource = (file: string): boolean => SHIPPED_DIRECTORIES.some(([pattern]) => pattern.test(file));
/** What a shipped example may import: the package itself and Node's built-ins. */
const EXAMPLE_IMPORT = /^(lunas-sdk(\/testing)?|node:[a-z_/]+)$/;
const FORBIDDEN: [RegExp, string][] = [
  [/(^|\/)(test|tests|__tests__|fixtures|__mocks__)\//, 'a test directory'],
  [/\.(test|spec)\.[cm]?[jt]sx?$/, 'a test file'],
  [/(^|\/)\.env(\.|$)/, 'an environment file'],
  [/(^|\/)\.npmrc$/, 'an npm config file, which may hold a token'],
  [/\.(pem|key|p12|pfx|tgz|tsbuildinfo|log)$/, 'a key, archive, build-info or log file'],
];
const TYPESCRIPT_SOURCE = /(?<!\.d)\.[cm]?tsx?$/;
const SECRETS: [RegExp, string][] = [
  [/sk_live/, 'a live lunas API key (sk_live)'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
  [/AKIA[0-9A-Z]{16}/, 'an AWS access key id'],
  [/\bgh[pousr]_[A-Za-z0-9]{36}\b/, 'a GitHub token'],
  [/\bnpm_[A-Za-z0-9]{36}\b/, 'an npm token'],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
];

const problems: string[] = [];
const problem = (message: string): void => void problems.push(message);

/** What `npm pack` would ship, listed without writing the tarball or running scripts. */
const [pack] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
) as [{ filename: string; size: number; unpackedSize: number; files: { path: string; size: number }[] }];
const files = pack.files.map((file) => file.path).sort();
const packed = new Set(files);

// Only dist/, the source, the guides, the examples and the top-level files, and each top-level file present.
const shippedDirectories = SHIPPED_DIRECTORIES.map(([, what]) => what).join(', ');
for (const file of files) {
  if (!file.startsWith('dist/') && !TOP_LEVEL.includes(file) && !isShippedSource(file))
    problem(`${file}: not in dist/, ${shippedDirectories}, nor one of ${TOP_LEVEL.join(', ')}`);
  for (const [pattern, what] of FORBIDDEN) if (pattern.test(file)) problem(`${file}: ${what}`);
  if (TYPESCRIPT_SOURCE.test(file) && !isShippedSource(file))
    problem(`${file}: a TypeScript source file (only .d.ts / .d.cts, src/**/*.ts and examples/*.ts are shipped)`);
}
for (const file of TOP_LEVEL) if (!packed.has(file)) problem(`${file} is missing from the package`);
for (const [pattern, what] of SHIPPED_DIRECTORIES) {
  if (!files.some((file) => pattern.test(file))) problem(`no ${what} is packed`);
}

// A shipped example imports only the package and Node's built-ins: one importing a
// repository file (../src, a test helper) would not run from node_modules.
for (const file of files.filter((name) => name.startsWith('examples/'))) {
  const text = readFileSync(path.join(root, file), 'utf8');
  // `from '…'`, a bare `import '…'` and `import('…')`.
  for (const [, specifier] of text.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    if (specifier !== undefined && !EXAMPLE_IMPORT.test(specifier))
      problem(`${file}: imports ${specifier}, which a reader of the package does not have`);
  }
}

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
checkRepositoryFields(manifest);

// Source maps: every source is packed or embedded; no absolute build-machine paths;
// every sourceMappingURL names a packed map.
let maps = 0;
for (const file of files) {
  const text = readFileSync(path.join(root, file), 'utf8');
  for (const [pattern, what] of SECRETS) if (pattern.test(text)) problem(`${file}: contains ${what}`);

  if (/\.[cm]?js$/.test(file)) {
    for (const [, url] of text.matchAll(/^\/\/# sourceMappingURL=(\S+)$/gm)) {
      if (url === undefined || url.startsWith('data:')) continue;
      const mapFile = path.posix.join(path.posix.dirname(file), url);
      if (!packed.has(mapFile)) problem(`${file}: sourceMappingURL ${url} is not packed`);
    }
  }
  if (!file.endsWith('.map')) continue;
  maps += 1;
  const map = JSON.parse(text) as { sources?: string[]; sourcesContent?: (string | null)[]; sourceRoot?: string };
  (map.sources ?? []).forEach((source, index) => {
    if (path.isAbsolute(source) || /^[a-z]+:/i.test(source)) problem(`${file}: source ${source} is an absolute path`);
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), map.sourceRoot ?? '', source));
    if (!packed.has(resolved) && typeof map.sourcesContent?.[index] !== 'string') {
      problem(`${file}: source ${source} is neither packed nor embedded in sourcesContent`);
    }
  });
}

// Links remark cannot read: the TSDoc of the declarations (an editor shows it on hover;
// scripts/declaration-links.ts) and api.md's raw-HTML hrefs name files the package ships.
// (check-package.sh checks the shipped Markdown's own links with remark-validate-links.)
for (const file of files.filter((name) => /\.d\.c?ts$/.test(name) || name === 'api.md')) {
  const text = readFileSync(path.join(root, file), 'utf8');
  for (const [, link = '', href = ''] of text.matchAll(/\]\((\.{1,2}\/[^)#\s]+)|href="(\.{1,2}\/[^"#]+)"/g)) {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(link || href)));
    if (!packed.has(target)) problem(`${file}: links ${link || href} → ${target}, which the package does not ship`);
  }
}

/**
 * `repository`, `homepage` and `bugs` come together, once the repository has a public
 * URL (docs/decisions/0028-package-ships-src-no-repository-url.md): all three absent, or
 * all three naming it.
 */
function checkRepositoryFields(manifest: Record<string, unknown>): void {
  const urlOf = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (value !== null && typeof value === 'object' && 'url' in value && typeof value.url === 'string')
      return value.url;
    return undefined;
  };
  const fields = ['repository', 'homepage', 'bugs'] as const;
  const present = fields.filter((field) => manifest[field] !== undefined);
  if (present.length === 0) return;
  if (present.length < fields.length) {
    problem(`package.json has ${present.join(', ')} but not ${fields.filter((f) => !present.includes(f)).join(', ')}`);
    return;
  }
  const repository = urlOf(manifest.repository)
    ?.replace(/^git\+/, '')
    .replace(/\.git$/, '');
  if (repository === undefined || !/^https:\/\//.test(repository)) {
    problem('package.json: repository.url must be an https URL (git+https://…/owner/name.git)');
    return;
  }
  for (const field of ['homepage', 'bugs'] as const) {
    const url = urlOf(manifest[field]);
    if (url === undefined || !url.startsWith(repository))
      problem(`package.json: ${field} (${url ?? 'no url'}) is not under the repository's ${repository}`);
  }
}

const size = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;
console.log(`${pack.filename}: ${files.length} files, ${size(pack.size)} packed, ${size(pack.unpackedSize)} unpacked`);
for (const file of pack.files.sort((a, b) => a.path.localeCompare(b.path))) {
  console.log(`  ${size(file.size).padStart(9)}  ${file.path}`);
}
if (problems.length > 0) {
  console.error(`\n${problems.length} problem(s) with the package contents:`);
  for (const message of problems) console.error(`  - ${message}`);
  process.exit(1);
}
console.log(
  `pack contents OK (${maps} source maps, each source embedded or packed; no test or secret file; examples import only the package)`,
);
