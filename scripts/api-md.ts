// api.md: an index of every public method and type, one line each, in the
// reference's categories (typedoc.json `categoryOrder`), each name linked to
// the file that declares it so the index works on the repository host. It is
// generated from typedoc's model of the source, never written by hand:
//   npx tsx scripts/api-md.ts           writes api.md
//   npx tsx scripts/api-md.ts --check   fails when api.md is not what the source gives (CI)
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Application,
  type DeclarationReflection,
  LogLevel,
  ReflectionKind,
  type SignatureReflection,
  TSConfigReader,
  TypeDocReader,
} from 'typedoc';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = 'api.md';

async function project() {
  const app = await Application.bootstrapWithPlugins(
    // Sources on, to link each name to its file; no output is rendered.
    { options: join(root, 'typedoc.json'), disableSources: false, logLevel: LogLevel.Error },
    [new TypeDocReader(), new TSConfigReader()],
  );
  const converted = await app.convert();
  if (!converted) throw new Error('typedoc could not convert the project');
  return { project: converted, order: app.options.getValue('categoryOrder') };
}

/** `./src/x.ts`: where a declaration lives, relative to api.md. */
function file(reflection: DeclarationReflection): string {
  const source = reflection.sources?.[0] ?? reflection.signatures?.[0]?.sources?.[0];
  return source ? `./${relative(root, source.fullFileName)}` : '#';
}

function link(reflection: DeclarationReflection, text = reflection.name): string {
  return `<a href="${file(reflection)}">${text}</a>`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function call(signature: SignatureReflection): string {
  const parameters = (signature.parameters ?? []).map(
    (p) => `${p.name}${p.flags.isOptional || p.defaultValue ? '?' : ''}`,
  );
  return `(${parameters.join(', ')}) -> ${escape(String(signature.type ?? 'void'))}`;
}

/** The public constructor and methods of a class, each signature once (overloads included). */
function methods(owner: DeclarationReflection, receiver: string): string[] {
  const constructors = (owner.children ?? [])
    .filter((member) => member.kindOf(ReflectionKind.Constructor))
    .flatMap((member) =>
      (member.signatures ?? []).map((signature) => `- <code>new ${link(owner)}${call(signature)}</code>`),
    );
  return constructors.concat(
    (owner.children ?? [])
      .filter((member) => member.kindOf(ReflectionKind.Method) && !member.flags.isStatic)
      .flatMap((member) =>
        (member.signatures ?? []).map(
          (signature) => `- <code>${receiver}.${link(member, escape(member.name))}${call(signature)}</code>`,
        ),
      ),
  );
}

/**
 * Whether a declaration is listed by its calls (a function, or a class or
 * interface with methods) rather than by name. Errors are listed by name:
 * their one method, `toJSON`, is the same on all.
 */
function hasOwnLines(reflection: DeclarationReflection): boolean {
  if (!reflection.kindOf(ReflectionKind.Class | ReflectionKind.Interface | ReflectionKind.Function)) return false;
  if (reflection.kindOf(ReflectionKind.Function)) return true;
  return !isError(reflection) && methods(reflection, '').length > 0;
}

function isError(reflection: DeclarationReflection): boolean {
  return reflection.name.endsWith('Error');
}

/** The stem of a declaring file: `charge` for charge-types.ts, `charges` for charges.ts. */
function stem(reflection: DeclarationReflection): string {
  return basename(file(reflection), '.ts').replace(/-types$/, '');
}

/** A type belongs under a class when their files share a stem (charge-types.ts and charges.ts). */
function sameFamily(type: DeclarationReflection, owner: DeclarationReflection): boolean {
  return stem(owner).startsWith(stem(type));
}

/** `` `lunas-sdk`, `lunas-sdk/testing` and `lunas-sdk/mcp` ``: the entry points, as code, in a sentence. */
function entryPoints(names: string[]): string {
  const quoted = names.map((name) => `\`${name}\``);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

function render(projectModel: Awaited<ReturnType<typeof project>>): string {
  const { project: model, order } = projectModel;
  const modules = model.getChildrenByKind(ReflectionKind.Module);
  const client = model.getReflectionsByKind(ReflectionKind.Class).find((c) => c.name === 'Client') as
    DeclarationReflection | undefined;
  // `client.charges` and the like: the name a merchant reaches each class by.
  const receivers = new Map<string, string>();
  for (const property of client?.children ?? []) {
    const type = property.type;
    if (property.kindOf(ReflectionKind.Property) && type?.type === 'reference')
      receivers.set(type.name, `client.${property.name}`);
  }
  if (client) receivers.set('Client', 'client');
  const lines = [
    '# API index',
    '',
    '<!-- Generated by `npx tsx scripts/api-md.ts` from the source: do not edit by hand. -->',
    '',
    `Every public method and type of ${entryPoints(modules.map((module) => module.name))}, in the`,
    'categories of the API reference (`npm run docs`). Each name links to the file',
    'that declares it; the reference and the guides in [docs/](docs/getting-started.md) explain them.',
  ];
  const categories = modules.flatMap((module) =>
    (module.categories ?? []).map((category) => ({ module: module.name, category })),
  );
  const uncategorised = categories.filter(({ category }) => !order.includes(category.title));
  if (uncategorised.length > 0) {
    const names = uncategorised.flatMap(({ category }) => category.children.map((child) => child.name));
    throw new Error(`Exports without a @category of typedoc.json's categoryOrder: ${names.join(', ')}`);
  }
  categories.sort((a, b) => order.indexOf(a.category.title) - order.indexOf(b.category.title));
  for (const { module, category } of categories) {
    lines.push('', `# ${category.title}`, '', `From \`${module}\`.`);
    const children = category.children as DeclarationReflection[];
    const classes = children.filter((c) => c.kindOf(ReflectionKind.Class | ReflectionKind.Interface));
    const functions = children.filter((c) => c.kindOf(ReflectionKind.Function));
    const types = children.filter((c) => !hasOwnLines(c));
    const withMethods = classes.filter(hasOwnLines);
    if (functions.length > 0) {
      lines.push('', 'Functions:', '');
      for (const fn of functions) {
        for (const signature of fn.signatures ?? []) lines.push(`- <code>${link(fn)}${call(signature)}</code>`);
      }
    }
    const claimed = new Set<DeclarationReflection>();
    for (const owner of withMethods) {
      const receiver = receivers.get(owner.name) ?? owner.name[0]!.toLowerCase() + owner.name.slice(1);
      lines.push('', `## ${owner.name}`, '', 'Methods:', '', ...methods(owner, receiver));
      const own = types.filter((type) => !claimed.has(type) && sameFamily(type, owner));
      own.forEach((type) => claimed.add(type));
      if (own.length > 0) lines.push('', 'Types:', '', ...own.map((type) => `- <code>${link(type)}</code>`));
    }
    const listed = types.filter((t) => !claimed.has(t));
    if (listed.length > 0) {
      const values = listed.some((t) => t.kindOf(ReflectionKind.Variable)) ? ' and values' : '';
      const classesToo = listed.some((t) => t.kindOf(ReflectionKind.Class)) ? 'Classes and types' : `Types${values}`;
      lines.push('', withMethods.length > 0 ? `## Other types${values}` : `${classesToo}:`, '');
      for (const type of listed) lines.push(`- <code>${link(type)}</code>`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const generated = render(await project());
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(join(root, OUTPUT), 'utf8');
  } catch {
    // Missing reads as out of date.
  }
  if (committed !== generated) {
    console.error(`${OUTPUT} is out of date with the source: run npx tsx scripts/api-md.ts and commit it`);
    process.exit(1);
  }
  console.log(`${OUTPUT} is up to date`);
} else {
  writeFileSync(join(root, OUTPUT), generated);
  console.log(`wrote ${OUTPUT}`);
}
