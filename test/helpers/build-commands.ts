/**
 * vitest's globalSetup: lunas-sandbox and lunas-mcp bundled from source once per
 * run, by esbuild, as tsup bundles them for dist/, for the suites that start them
 * as processes. Node.js starts a bundle in about a tenth of a second; the source
 * through tsx took half a second, each of the hundreds of times the suites start
 * a command. Written under .tmp/ (ignored by git), beside the project's
 * node_modules, where the commands' dependencies resolve as they do from dist/.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundled commands, relative to the project's root (the tests' working directory). */
    commands: { sandbox: string; mcp: string };
  }
}

export default async function buildCommands(project: TestProject): Promise<() => Promise<void>> {
  const root = project.config.root;
  await mkdir(join(root, '.tmp'), { recursive: true });
  const outdir = await mkdtemp(join(root, '.tmp', 'commands-'));
  await build({
    entryPoints: { sandbox: join(root, 'src/testing/cli/main.ts'), mcp: join(root, 'src/mcp/cli/main.ts') },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    // As tsup splits them: a module imported when called (lunas-mcp's MCP server) stays a chunk
    // of its own, so a missing optional peer is met there, not on loading the command.
    splitting: true,
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  project.provide('commands', {
    sandbox: relative(root, join(outdir, 'sandbox.mjs')),
    mcp: relative(root, join(outdir, 'mcp.mjs')),
  });
  return () => rm(outdir, { recursive: true, force: true });
}
