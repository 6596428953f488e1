// Every public function and method whose own body has a `throw` says so with
// `@throws` in its TSDoc (on it or one of its overloads), so the reference and an
// editor's hover name what it can throw. Read from the source with the TypeScript
// compiler, from the two entry points' exports. Only a body's own `throw`s count:
// not those in a nested function (a callback may run later, or never), nor those
// in a `try` block with a `catch` (caught there); an error thrown by a helper the
// body calls is not seen, so this holds the floor, not the whole rule. Any
// `@throws` counts, so one naming what is specific and linking a shared table does.
// Not eslint-plugin-jsdoc's require-throws: it skips async functions and the
// `try` block of a try/finally, and a linter cannot tell the entry points'
// exports from a module's helpers (it asked @throws of 16 internal functions).
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRIES = ['src/index.ts', 'src/testing/index.ts'].map((entry) => resolve(ROOT, entry));

/** Whether `body` throws by a `throw` of its own that nothing in it catches. */
function throwsItself(body: ts.Node): boolean {
  const visit = (node: ts.Node): boolean => {
    if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
    if (ts.isThrowStatement(node)) return true;
    if (ts.isTryStatement(node)) {
      const uncaught = node.catchClause === undefined ? [node.tryBlock] : [node.catchClause.block];
      return [...uncaught, ...(node.finallyBlock ? [node.finallyBlock] : [])].some(visit);
    }
    return ts.forEachChild(node, visit) ?? false;
  };
  return ts.forEachChild(body, visit) ?? false;
}

const hasTag = (node: ts.Node, tag: string): boolean => ts.getJSDocTags(node).some((t) => t.tagName.text === tag);
const isPublicMember = (member: ts.ClassElement): boolean =>
  !(member.name !== undefined && ts.isPrivateIdentifier(member.name)) &&
  !(ts.getCombinedModifierFlags(member as ts.Declaration) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected));

/** The public functions and methods of the entry points, by name, with their declarations (overloads too). */
function publicCallables(): Map<string, ts.FunctionLikeDeclaration[]> {
  const program = ts.createProgram(ENTRIES, {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const callables = new Map<string, ts.FunctionLikeDeclaration[]>();
  const add = (name: string, node: ts.FunctionLikeDeclaration) =>
    callables.set(name, [...(callables.get(name) ?? []), node]);
  for (const entry of ENTRIES) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry) as ts.SourceFile);
    for (const exported of module === undefined ? [] : checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const declaration of symbol.declarations ?? []) {
        if (hasTag(declaration, 'internal')) continue;
        if (ts.isFunctionDeclaration(declaration)) add(symbol.name, declaration);
        if (!ts.isClassDeclaration(declaration)) continue;
        for (const member of declaration.members) {
          const callable = ts.isMethodDeclaration(member) || ts.isConstructorDeclaration(member);
          if (!callable || !isPublicMember(member) || hasTag(member, 'internal')) continue;
          add(`${symbol.name}.${member.name?.getText() ?? 'constructor'}`, member);
        }
      }
    }
  }
  return callables;
}

/**
 * The text of every `@throws` tag on a declaration, read from its doc comment's
 * source: the compiler takes `{@link X}` after `@throws` for a type and drops the rest.
 */
function throwsTexts(node: ts.Node): string[] {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const lines = docs.flatMap((doc) =>
    doc
      .getText()
      .split('\n')
      .map((line) => line.replace(/^\s*(\/\*\*|\*\/|\*)\s?/, '')),
  );
  const tags = lines.join('\n').split(/\n(?=@)/);
  return tags
    .filter((tag) => tag.startsWith('@throws'))
    .map((tag) =>
      tag
        .replace(/^@throws\s*/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
}

/** The calls that send a request: every resource method, the raw calls, and confirm (it reads the charge back). */
const isCall = (name: string, declaration: ts.Node): boolean =>
  declaration.getSourceFile().fileName.includes('/src/resources/') ||
  ['Client.get', 'Client.post', 'Webhooks.confirm'].includes(name);

describe('@throws in the TSDoc', () => {
  it('is on every public function and method whose body throws', () => {
    const callables = publicCallables();
    expect(callables.has('pageEnvelope')).toBe(true);
    const missing = [...callables]
      .filter(([, declarations]) => declarations.some((d) => d.body !== undefined && throwsItself(d.body)))
      .filter(([, declarations]) => !declarations.some((d) => hasTag(d, 'throws')))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  }, 60_000);

  it("is written once for every call's errors: each call links the table, and names only its own", () => {
    const calls = [...publicCallables()].filter(([name, [first]]) => first !== undefined && isCall(name, first));
    expect(calls.map(([name]) => name)).toEqual(
      expect.arrayContaining(['Charges.create', 'Transfers.list', 'Client.get', 'Webhooks.confirm']),
    );
    const linking = (text: string) =>
      /^\{@link LunasError\} every call's errors(, [^:]+)?: see\s+\[the table\]\((\.\.\/)+docs\/errors-and-retries\.md#every-error-a-call-can-raise\)\.$/.test(
        text,
      );
    const unlinked = calls
      .filter(([, declarations]) => !declarations.some((d) => throwsTexts(d).some(linking)))
      .map(([name]) => name);
    expect(unlinked).toEqual([]);
    // The table's rows that no method has of its own: a method that names one is pasting the table again.
    const everyCalls =
      /APIConnectionError|APIConnectionTimeoutError|APIUserAbortError|InternalServerError|RateLimitError/;
    const pasted = [...publicCallables()]
      .filter(([, declarations]) => declarations.some((d) => throwsTexts(d).some((text) => everyCalls.test(text))))
      .map(([name]) => name);
    expect(pasted).toEqual([]);
  }, 60_000);
});
