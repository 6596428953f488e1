/**
 * A TypeScript program of this repository run as a command: its own Node.js
 * process with tsx loaded into it, and `lunas-sandbox` run that way from source.
 */
import { execFile } from 'node:child_process';

/**
 * `node --import tsx`, not the tsx command: that one starts a second Node.js
 * process to run the program in, a fraction of a second more per run (the
 * command's suites run dozens), and relays signals, so that under load a
 * relayed SIGTERM could end the wrapper before the program's own handler ran
 * (exit 143).
 */
export const NODE_WITH_TSX = [process.execPath, '--import', 'tsx'] as const;

/** The lunas-sandbox command from source, as `npx lunas-sandbox` runs its build. */
export const SANDBOX_CLI = 'src/testing/cli/main.ts';

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
  const [node, ...loader] = NODE_WITH_TSX;
  return new Promise((resolve) => {
    execFile(
      node,
      [...loader, SANDBOX_CLI, ...args],
      { env: { ...inherited, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}
