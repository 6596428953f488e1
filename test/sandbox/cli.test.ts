import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sleep } from '../helpers/waiting.js';

const TSX = 'node_modules/.bin/tsx';
const CLI = 'src/testing/cli.ts';
/** Kills `child` after the current test unless it has exited. */
function killAfterTest(child: ChildProcess): void {
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

function run(args: string[]) {
  const child = spawn(TSX, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  killAfterTest(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, output: () => ({ stdout, stderr }) };
}

async function waitForUrl(output: () => { stdout: string }, ms = 15_000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output().stdout);
    if (match?.[1]) return match[1];
    if (Date.now() > deadline) throw new Error(`no URL printed: ${output().stdout}`);
    await sleep(25);
  }
}

describe('lunas-sandbox CLI', () => {
  it.each([['SIGTERM'], ['SIGINT']] as const)('serves on the printed URL and stops cleanly on %s', async (signal) => {
    const cli = run(['--port', '0', '--api-key', 'sk_test_cli']);
    const url = await waitForUrl(cli.output);
    expect(cli.output().stdout).toContain('API key: sk_test_cli');
    const ok = await fetch(`${url}/v1/payments/methods`, { headers: { authorization: 'Bearer sk_test_cli' } });
    expect(ok.status).toBe(200);
    const refused = await fetch(`${url}/v1/payments/methods`, { headers: { authorization: 'Bearer sk_test_sandbox' } });
    expect(refused.status).toBe(401);
    cli.child.kill(signal);
    const [code] = await cli.exited;
    expect(code).toBe(0);
    await expect(fetch(`${url}/v1/payouts`)).rejects.toThrow();
  });

  it('defaults to the sk_test_sandbox key', async () => {
    const cli = run(['--port=0']);
    const url = await waitForUrl(cli.output);
    expect(cli.output().stdout).toContain('API key: sk_test_sandbox');
    expect((await fetch(`${url}/v1/payouts`, { headers: { authorization: 'Bearer sk_test_sandbox' } })).status).toBe(
      200,
    );
    cli.child.kill('SIGTERM');
    expect((await cli.exited)[0]).toBe(0);
  });

  it('prints usage for --help and exits 0', async () => {
    const cli = run(['--help']);
    const [code] = await cli.exited;
    expect(code).toBe(0);
    expect(cli.output().stdout).toContain('Usage: lunas-sandbox');
    expect(cli.output().stdout).toContain('--api-key');
  });

  it.each([[['--port', 'abc']], [['--port', '70000']], [['--verbose']], [['extra']]])(
    'refuses %j with exit code 2 and a message on stderr',
    async (args) => {
      const cli = run(args);
      const [code] = await cli.exited;
      expect(code).toBe(2);
      expect(cli.output().stderr).toMatch(/^lunas-sandbox: /);
      expect(cli.output().stdout).toBe('');
    },
  );
});
