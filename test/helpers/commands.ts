/**
 * The commands, lunas-sandbox and lunas-mcp, as a merchant's shell starts them:
 * Node.js on the bundle build-commands.ts made of the source for this run.
 */
import { execFile } from 'node:child_process';
import { inject } from 'vitest';

/** `node <bundle>` of lunas-sandbox: the executable, then its arguments before the command's own. */
export const sandboxCommand = (): [string, string] => [process.execPath, inject('commands').sandbox];

/** `node <bundle>` of lunas-mcp. */
export const mcpCommand = (): [string, string] => [process.execPath, inject('commands').mcp];

/** How a command run ended: its exit code (`null` when a signal or the time limit ended it) and what it printed. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `lunas-sandbox …args` with `env` over this process's environment,
 * less its LUNAS_BASE_URL and LUNAS_API_KEY, so only `env` points it at a sandbox.
 */
export function runSandboxCli(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  const { LUNAS_BASE_URL: _url, LUNAS_API_KEY: _key, ...inherited } = process.env;
  const [node, bundle] = sandboxCommand();
  return new Promise((resolve) => {
    execFile(node, [bundle, ...args], { env: { ...inherited, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}
