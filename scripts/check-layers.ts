// CI gate: src/ has no import circle, and src/core/ is built in floors, each
// module importing only from its own floor or a lower one. Every import
// counts, `import type` and `export … from` included (a circle of types alone
// still ties the modules' order together), and so do `import('./x.js')` and
// `typeof import('./x.js')`. Three folders have boundaries: src/testing (the
// sandbox) imports no SDK module, src/shared imports nothing at all, and
// src/otel only the tracing channels and what checks its options, and src/undici nothing of the SDK (BOUNDARIES). The imports are read with the TypeScript parser,
// nothing is compiled. Run: npx tsx scripts/check-layers.ts
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * src/core's floors, bottom to top, by module name (the file without `.ts`).
 * A module may import from its own floor and the floors below it, never from
 * one above; a new module of src/core goes on a floor here before it passes.
 */
export const CORE_FLOORS: readonly (readonly string[])[] = [
  // What every other module may throw or hand over (the error classes, the public shapes of a call),
  // and facts that need nothing: what the runtime is, one listener per caller signal.
  ['errors', 'types', 'runtime', 'signal-fan-in'],
  // The tracing channels (lunas:operation, lunas:attempt), where the runtime has them, and the contexts
  // published on them: the request primitive and the transport publish, lunas-sdk/otel subscribes.
  ['tracing'],
  // Words for messages: a value described, an unknown name's closest known names.
  ['describe-value', 'closest-names'],
  // The key masked in every form, before any text that may hold it is logged or thrown.
  ['secrets'],
  // Where text leaves the SDK: the log, then the listeners (whose throws are logged).
  ['log', 'events'],
  // The checks on what callers give (schemas, options), which every floor above reads.
  ['schemas', 'options'],
  // A response decoded: the redirect rules, and the envelope (a page's among them).
  ['redirects', 'envelope'],
  // The wire: ky over the process's fetch.
  ['ky'],
  // A client's turns on the wire; one attempt under its deadline, and the policy that decides another.
  ['send-slots', 'attempt', 'retry-policy'],
  // One call: the retry loop over attempts.
  ['transport'],
  // A list call as the request primitive hands it over, and the rules of walking its items.
  ['list-spec', 'walk-rules'],
  // toArray({ limit }), which every walk shares.
  ['to-array'],
  // since(): a walk back to a time, given a way to open the item walk.
  ['since'],
  // A page and its promise, which hands out since() walks.
  ['page'],
  // The request primitive: sends through the transport, and makes each list a PagePromise.
  ['request'],
];

/** An import the rules would refuse, allowed by name until the importing file changes. */
export interface AllowedImport {
  /** The importing file, relative to src/: `core/transport.ts`. */
  readonly from: string;
  /** The imported file, relative to src/. */
  readonly to: string;
  /** Why it is still here, and what replaces it. */
  readonly why: string;
}

/**
 * Imports left out of the graph until their file is rewritten; an entry that
 * no longer matches an import fails the check, so the list only shrinks.
 */
export const ALLOWED_FOR_NOW: readonly AllowedImport[] = [];

/** What the check enforces: the folder built in floors, its floors, and the exceptions. */
export interface LayerRules {
  /** The folder, relative to the graph's root, whose direct modules sit on floors: `core`. */
  readonly floored: string;
  /** Module names by floor, bottom first. */
  readonly floors: readonly (readonly string[])[];
  /** Imports left out of the graph, each until its file changes. */
  readonly allowed: readonly AllowedImport[];
}

/** src/'s rules. */
export const SRC_RULES: LayerRules = { floored: 'core', floors: CORE_FLOORS, allowed: ALLOWED_FOR_NOW };

/** Each file (a `/`-separated path relative to the root) and the files of the root it imports, sorted. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * The module specifiers a file names: import and export declarations (type-only
 * ones too), `import x = require()`, `import()` calls and `import()` types.
 */
export function specifiersOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node !== undefined && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The import graph of `sources` (file → text, paths relative to one root):
 * relative specifiers only, each resolved as the bundler resolution does
 * (`./x.js` is `x.ts`, `./x` is `x.ts` or `x/index.ts`). Packages and files
 * outside `sources` are left out.
 */
export function importGraph(sources: ReadonlyMap<string, string>): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const imported = new Set<string>();
    for (const specifier of specifiersOf(file, text)) {
      if (!specifier.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file), specifier));
      const stem = target.replace(/\.(js|ts|mjs|mts)$/, '');
      const match = [target, `${stem}.ts`, `${stem}.mts`, `${stem}/index.ts`].find((name) => sources.has(name));
      if (match !== undefined) imported.add(match);
    }
    graph.set(file, [...imported].sort());
  }
  return graph;
}

/** Every `.ts` file under `dir`, read: paths relative to `dir`, `/`-separated. */
export function readSources(dir: string): Map<string, string> {
  const sources = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (name.endsWith('.ts') && statSync(path).isFile())
      sources.set(name.split(sep).join('/'), readFileSync(path, 'utf8'));
  }
  return new Map([...sources].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * What breaks the rules in `graph`, one line each (none when it keeps them):
 * every circle, as `a.ts → b.ts → a.ts`; an import from a higher floor; a
 * module of the floored folder on no floor, a floor's name with no module,
 * and an allowed import that is no longer there.
 */
export function checkLayers(graph: ImportGraph, rules: LayerRules): string[] {
  const problems: string[] = [];
  const edges = new Map<string, string[]>();
  const used = new Set<AllowedImport>();
  for (const [file, imported] of graph) {
    edges.set(
      file,
      imported.filter((target) => {
        const allowance = rules.allowed.find((allowed) => allowed.from === file && allowed.to === target);
        if (allowance !== undefined) used.add(allowance);
        return allowance === undefined;
      }),
    );
  }
  for (const allowance of rules.allowed) {
    if (!used.has(allowance))
      problems.push(
        `${allowance.from} no longer imports ${allowance.to}: take its entry out of ALLOWED_FOR_NOW in scripts/check-layers.ts`,
      );
  }
  for (const { circle, group } of circles(edges)) {
    const others = group.filter((file) => !circle.includes(file));
    const rest = others.length > 0 ? ` (the files importing each other with them: ${others.join(', ')})` : '';
    problems.push(`import circle: ${circle.join(' → ')}${rest}`);
  }
  problems.push(...floorProblems(edges, rules));
  return problems;
}

/** The floor of each module of the floored folder, and what is misplaced. */
function floorProblems(edges: ReadonlyMap<string, readonly string[]>, rules: LayerRules): string[] {
  const problems: string[] = [];
  const prefix = `${rules.floored}/`;
  const moduleName = (file: string) =>
    file.startsWith(prefix) && !file.slice(prefix.length).includes('/') ? file.slice(prefix.length, -3) : undefined;
  const floorOf = new Map<string, number>();
  rules.floors.forEach((names, floor) => names.forEach((name) => floorOf.set(name, floor)));
  const present = new Set<string>();
  for (const file of edges.keys()) {
    const name = moduleName(file);
    if (name === undefined) continue;
    present.add(name);
    if (!floorOf.has(name)) problems.push(`${file} is on no floor: add it to CORE_FLOORS in scripts/check-layers.ts`);
  }
  for (const name of floorOf.keys()) {
    if (!present.has(name)) problems.push(`CORE_FLOORS names ${prefix}${name}.ts, which does not exist`);
  }
  const describe = (name: string) => `floor ${floorOf.get(name)! + 1}: ${rules.floors[floorOf.get(name)!]!.join(', ')}`;
  for (const [file, imported] of edges) {
    const from = moduleName(file);
    if (from === undefined || !floorOf.has(from)) continue;
    for (const target of imported) {
      const to = moduleName(target);
      if (to === undefined || !floorOf.has(to) || floorOf.get(to)! <= floorOf.get(from)!) continue;
      problems.push(`${file} (${describe(from)}) imports ${target}, from a higher floor (${describe(to)})`);
    }
  }
  return problems;
}

/**
 * One circle per group of files that import each other (a strongly connected
 * component, by Tarjan's algorithm): the shortest one through its first file,
 * closed on that file, beside the whole group. Files are visited in sorted
 * order, so the report is stable.
 */
export function circles(edges: ReadonlyMap<string, readonly string[]>): { circle: string[]; group: string[] }[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (edges.get(file) ?? []).includes(file)) groups.push(group.sort());
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) connect(file);
  return groups
    .sort((a, b) => (a[0]! < b[0]! ? -1 : 1))
    .map((group) => ({ circle: shortestCircle(group[0]!, new Set(group), edges), group }));
}

/** The shortest path from `start` back to itself within `group`, breadth first. */
function shortestCircle(start: string, group: ReadonlySet<string>, edges: ReadonlyMap<string, readonly string[]>) {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const file = queue[head]!;
    for (const target of edges.get(file) ?? []) {
      if (!group.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = file; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/**
 * A folder of src/ that may import only from the folders (or files) named:
 * every specifier of its files, packages included, must resolve inside one of
 * them. `reason` says why, in the failure.
 */
export interface Boundary {
  /** The folder, relative to src/: `testing`. */
  readonly folder: string;
  /** What its files may import, relative to src/: folders end with `/`, files with `.ts`. */
  readonly mayImport: readonly string[];
  /** Whether a package (`zod`, `node:http`) may be imported. */
  readonly packages: boolean;
  readonly reason: string;
}

/**
 * src/'s boundaries: the sandbox never imports the SDK (it is the service the
 * SDK is tested against, so sharing a rule would hide a bug on both sides), and
 * what both need (money read without floating point, "did you mean") lives in
 * src/shared/, which imports nothing at all; lunas-sdk/otel subscribes to the
 * tracing channels and never reaches the request path.
 */
export const BOUNDARIES: readonly Boundary[] = [
  {
    folder: 'shared',
    mayImport: ['shared/'],
    packages: false,
    reason: 'src/shared is imported by the SDK and the sandbox alike, so it imports nothing',
  },
  {
    folder: 'testing',
    mayImport: ['testing/', 'shared/', 'version.ts'],
    packages: true,
    reason: 'the sandbox never imports the SDK: what both need goes in src/shared',
  },
  {
    folder: 'otel',
    mayImport: [
      'otel/',
      'core/tracing.ts',
      'core/errors.ts',
      'core/options.ts',
      'core/describe-value.ts',
      'version.ts',
    ],
    packages: true,
    reason:
      'lunas-sdk/otel subscribes to the tracing channels: it reads their contexts and checks its options, and never calls',
  },
  {
    folder: 'undici',
    mayImport: ['undici/'],
    packages: true,
    reason: 'lunas-sdk/undici is a fetch of its own, built apart: it imports nothing of the SDK',
  },
];

/** Each import of `sources` (paths relative to src/) that crosses a boundary, one line each. */
export function boundaryProblems(sources: ReadonlyMap<string, string>, boundaries: readonly Boundary[]): string[] {
  const problems: string[] = [];
  for (const [file, text] of sources) {
    const boundary = boundaries.find(({ folder }) => file.startsWith(`${folder}/`));
    if (boundary === undefined) continue;
    for (const specifier of specifiersOf(file, text)) {
      if (!specifier.startsWith('.')) {
        if (!boundary.packages) problems.push(`${file} imports ${specifier}: ${boundary.reason}`);
        continue;
      }
      const target = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
      const inside = boundary.mayImport.some((allowed) =>
        allowed.endsWith('/') ? target.startsWith(allowed) : target === allowed,
      );
      if (!inside) problems.push(`${file} imports ${target}: ${boundary.reason}`);
    }
  }
  return problems;
}

/** src/ read and checked: the problems, one line each. */
export function checkSource(src: string): string[] {
  const sources = readSources(src);
  return [...checkLayers(importGraph(sources), SRC_RULES), ...boundaryProblems(sources, BOUNDARIES)];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const src = fileURLToPath(new URL('../src/', import.meta.url));
  const problems = checkSource(src);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
  for (const { from, to, why } of ALLOWED_FOR_NOW) console.log(`allowed for now: ${from} imports ${to} (${why})`);
  console.log(
    `src/: no import circle, src/core imports from no higher floor (${CORE_FLOORS.length} floors), ` +
      'src/testing imports no SDK module, src/shared imports nothing, and src/otel only the tracing channels and its checks',
  );
}
