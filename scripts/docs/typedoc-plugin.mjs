// lunas's typedoc plugin (typedoc.json `plugin`). Its jobs, so the built
// reference reads like the guides on the repository host:
// - each guide is named in the sidebar by its `# Title`, not its file name;
// - a heading's anchor is GitHub's slug of its whole text, so `x.md#anchor`
//   links written for GitHub land on the same heading in the reference;
// - only a URL with its scheme becomes a link, as on GitHub: markdown-it's
//   linkify otherwise made a bare `CHANGELOG.md` into http://CHANGELOG.md.
// - a member a class merely inherits from a platform class (Error, Promise) is
//   left out, so no group heading is left empty (test/docs/ fails on one).
// typedoc's own validation (typedoc.json) fails on a broken link or #anchor.
// Plain JavaScript: typedoc loads plugins with `import()`, on Node 20 too.
import { Application, Converter, KindRouter, ReflectionKind, Slugger } from 'typedoc';
import { slug as githubSlug } from 'github-slugger';
import { headings } from './github-slugs.mjs';

/** typedoc's slugger with GitHub's rule for a heading's text. */
class GithubSlugger extends Slugger {
  constructor() {
    super({ lowercase: true });
  }

  serialize(value) {
    return githubSlug(value) || '_';
  }
}

/**
 * typedoc's default router (a folder per kind), with a GitHub slugger per page;
 * a guide's page keeps its file's name (`documents/charges.html`) though the
 * guide is named by its title.
 * @param {WeakMap<object, string>} fileNames each guide's file name, without `.md`
 */
function githubSlugRouter(fileNames) {
  return class GithubSlugRouter extends KindRouter {
    #sluggers = new WeakMap();

    getIdealBaseName(reflection) {
      const fileName = fileNames.get(reflection);
      return fileName === undefined ? super.getIdealBaseName(reflection) : `documents/${fileName}`;
    }

    getSlugger(target) {
      // typedoc makes one slugger per page each build: key ours by it.
      const pageSlugger = super.getSlugger(target);
      let slugger = this.#sluggers.get(pageSlugger);
      if (slugger === undefined) {
        slugger = new GithubSlugger();
        this.#sluggers.set(pageSlugger, slugger);
      }
      return slugger;
    }
  };
}

/**
 * typedoc reads a heading's text from its plain-text tokens only, so the code
 * span in "`timeout` and `maxRetries`" vanished from the anchor and from "On
 * This Page". Giving each code span a text child makes it count; markdown-it
 * renders a code span from its own content, never its children.
 */
function codeSpansInHeadingText(markdown) {
  markdown.core.ruler.push('lunas_heading_code_text', (state) => {
    state.tokens.forEach((token, index) => {
      if (token.type !== 'inline' || state.tokens[index - 1]?.type !== 'heading_open') return;
      for (const child of token.children ?? []) {
        if (child.type !== 'code_inline') continue;
        const text = new state.Token('text', '', 0);
        text.content = child.content;
        child.children = [text];
      }
    });
  });
}

/**
 * A class's hierarchy skips an unexported base (the resources' `Resource`).
 * Runs before typedoc builds each hierarchy from `extendedTypes`.
 * @param {import('typedoc').ProjectReflection} project
 */
function withoutUnexportedBases(project) {
  const unexported = (type) => type.type === 'reference' && !type.reflection && type.package === project.packageName;
  for (const owner of project.getReflectionsByKind(ReflectionKind.Class)) {
    const bases = owner.extendedTypes?.filter((type) => !unexported(type));
    owner.extendedTypes = bases?.length ? bases : undefined;
  }
}

/**
 * Statics, symbol-named members and a constructor a class merely inherits from
 * a platform class (Promise's `all` and `[toStringTag]` on PagePromise, Error's
 * `captureStackTrace`, SandboxError's `new Error(message?, options?)`) are left
 * to the platform's documentation: the page's filter hides them, and a group
 * holding only them (PagePromise's Properties, SandboxError's Constructors)
 * showed an empty heading. An error's `message` and `stack` stay, shown under
 * "External". Decided for every member first, then removed, since a subclass's
 * member inherits through its parent's.
 * @param {import('typedoc').ProjectReflection} project
 */
function withoutPlatformStatics(project) {
  const fromPlatform = (member) => {
    let from = member.inheritedFrom;
    while (from?.type === 'reference' && from.reflection) from = from.reflection.inheritedFrom;
    return from?.type === 'reference' && from.package !== project.packageName;
  };
  const removed = project
    .getReflectionsByKind(ReflectionKind.Class)
    .flatMap((owner) => owner.children ?? [])
    .filter(
      (member) =>
        (member.flags.isStatic || member.name.startsWith('[') || member.kindOf(ReflectionKind.Constructor)) &&
        fromPlatform(member),
    );
  for (const member of removed) project.removeReflection(member);
}

/** The folders of src/ that are entry points of their own, each with the module typedoc names it. */
const ENTRY_POINT_FOLDERS = { testing: 'lunas-sdk/testing', mcp: 'lunas-sdk/mcp', otel: 'lunas-sdk/otel' };

/**
 * A guide links to the declaration it covers as `[label](../src/x.ts#Name.member)`:
 * on the repository host that opens the source with its TSDoc; here the link
 * goes to the symbol's page instead of a copy of the source file. A name that
 * is not documented in the reference is an error, like any broken link.
 * @param {import('typedoc').ProjectReflection} project
 * @param {import('typedoc').Logger} logger
 */
function sourceLinksToReference(project, logger) {
  const sourceLink = /[\\/]src[\\/](.+)\.ts$/;
  for (const document of project.getReflectionsByKind(ReflectionKind.Document)) {
    for (const part of document.content) {
      if (part.kind !== 'relative-link' || typeof part.target !== 'number' || !part.targetAnchor) continue;
      const path = project.files.resolvePath(part.target);
      const inSource = path && sourceLink.exec(path);
      if (!inSource) continue;
      const module = ENTRY_POINT_FOLDERS[inSource[1].split('/')[0]] ?? 'lunas-sdk';
      const symbol = project.getChildByName([module, ...part.targetAnchor.split('.')]);
      if (!symbol) {
        logger.error(
          `${document.name}: ${part.text} names no symbol ${part.targetAnchor} of ${module} in the reference`,
        );
        continue;
      }
      // One made-up path per symbol, which the file registry resolves to its
      // page (not `path#anchor`: the registry drops the anchor from a path).
      const symbolPath = `${path}/${part.targetAnchor}`;
      project.files.registerReflectionPath(symbolPath, symbol);
      part.target = project.files.registerAbsolute(symbolPath).target;
      part.targetAnchor = undefined;
    }
  }
}

/** @param {Application} app */
export function load(app) {
  const fileNames = new WeakMap();
  app.renderer.defineRouter('github-slugs', githubSlugRouter(fileNames));
  app.on(Application.EVENT_BOOTSTRAP_END, () => {
    const loader = app.options.getValue('markdownItLoader');
    app.options.setValue('markdownItLoader', (markdown) => {
      loader(markdown);
      // linkify takes any two-letter ending for a country's domain: `x.md`, `x.ts` and `x.js` became web addresses.
      markdown.linkify.set({ fuzzyLink: false });
      codeSpansInHeadingText(markdown);
    });
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => withoutUnexportedBases(context.project));
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => withoutPlatformStatics(context.project));
  app.converter.on(Converter.EVENT_RESOLVE_END, (context) => sourceLinksToReference(context.project, app.logger));
  app.converter.on(Converter.EVENT_CREATE_DOCUMENT, (_context, document) => {
    const title = headings(document.content.map((part) => part.text).join(''))[0]?.text;
    if (title === undefined) return;
    fileNames.set(document, document.name);
    document.name = title;
  });
}
