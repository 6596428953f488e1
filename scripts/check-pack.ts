// Pack-contents gate: what `npm pack` would ship (listed by `npm pack --dry-run --json`,
// read from the working tree it packs) must be only dist/, README.md, CHANGELOG.md,
// LICENSE and package.json, with every entry point present, no test or source file,
// no source map pointing at a file that is neither packed nor embedded in the map
// (`sourcesContent`), and nothing that looks like a secret.
// Run after `npm run build`: npm run check:pack
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackedFile {
  path: string;
  size: number;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const TOP_LEVEL = ['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json'];
const FORBIDDEN: [RegExp, string][] = [
  [/(^|\/)(test|tests|__tests__|fixtures|__mocks__)\//, 'a test directory'],
  [/\.(test|spec)\.[cm]?[jt]sx?$/, 'a test file'],
  [/(?<!\.d)\.[cm]?tsx?$/, 'a TypeScript source file (only .d.ts / .d.cts are shipped)'],
  [/(^|\/)src\//, 'a source directory'],
  [/(^|\/)\.env(\.|$)/, 'an environment file'],
  [/(^|\/)\.npmrc$/, 'an npm config file, which may hold a token'],
  [/\.(pem|key|p12|pfx|tgz|tsbuildinfo|log)$/, 'a key, archive, build-info or log file'],
];
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

const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
  cwd: root,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
});
const [pack] = JSON.parse(output) as [{ filename: string; size: number; unpackedSize: number; files: PackedFile[] }];
const files = pack.files.map((file) => file.path).sort();
const packed = new Set(files);

// Only dist/ and the four top-level files, and each of those four present.
for (const file of files) {
  if (!file.startsWith('dist/') && !TOP_LEVEL.includes(file))
    problem(`${file}: not in dist/ nor one of ${TOP_LEVEL.join(', ')}`);
  for (const [pattern, what] of FORBIDDEN) if (pattern.test(file)) problem(`${file}: ${what}`);
}
for (const file of TOP_LEVEL) if (!packed.has(file)) problem(`${file} is missing from the package`);

// Every file package.json points at is packed.
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
const targets = new Set<string>();
const collect = (value: unknown): void => {
  if (typeof value === 'string') targets.add(path.posix.normalize(value));
  else if (Array.isArray(value)) value.forEach(collect);
  else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
};
for (const field of ['main', 'module', 'types', 'typings', 'exports', 'bin', 'typesVersions']) collect(manifest[field]);
for (const target of targets) {
  if (target.includes('*')) continue;
  if (!packed.has(target)) problem(`package.json points at ${target}, which is not packed`);
}
for (const bin of Object.values((manifest.bin ?? {}) as Record<string, string>)) {
  const file = path.posix.normalize(bin);
  if (packed.has(file) && !readFileSync(path.join(root, file), 'utf8').startsWith('#!/usr/bin/env node\n')) {
    problem(`${file}: a bin must start with #!/usr/bin/env node`);
  }
}

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
console.log(`pack contents OK (${maps} source maps, each source embedded or packed; no test, source or secret file)`);
