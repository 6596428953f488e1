/**
 * The CI snippet of docs/testing.md ("The same from a shell script in CI"),
 * its start and stop run as written, twice in a row: it must leave no sandbox
 * running, so the second run starts a fresh one on the same port (no
 * EADDRINUSE, no readiness loop answered by the first run's sandbox and its
 * data). The bin is a stand-in for node_modules/.bin/lunas-sandbox that execs
 * Node.js with the command, as npm's link and its `#!/usr/bin/env node` do.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sandboxCommand } from '../helpers/commands.js';
import { listenForTest } from '../helpers/recorders.js';

/** The shell block of the guide that starts `lunas-sandbox --port 4010` in the background. */
async function documentedSnippet(): Promise<string> {
  const guide = await readFile('docs/testing.md', 'utf8');
  const blocks = [...guide.matchAll(/```sh\n(#!\/bin\/sh\n[\s\S]*?)```/g)].map((match) => match[1]!);
  const found = blocks.filter((block) => /--port 4010[^\n]*&\n/.test(block));
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** A free port on 127.0.0.1 (listened on, then closed). */
async function freePort(): Promise<number> {
  const server = createServer();
  const url = await listenForTest(server);
  await new Promise((done) => server.close(done));
  return Number(new URL(url).port);
}

function sh(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('sh', ['-c', script], { cwd, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

describe("docs/testing.md's CI snippet", () => {
  it('leaves no sandbox running: a second run starts a fresh sandbox on the same port', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lunas-ci-snippet-'));
    const pids = join(dir, 'pids');
    onTestFinished(async () => {
      // Whatever a run left behind goes with the test.
      const left = (await readFile(pids, 'utf8').catch(() => '')).split('\n').filter(Boolean);
      for (const pid of left) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      await rm(dir, { recursive: true, force: true });
    });
    const [node, bundle] = sandboxCommand();
    const main = resolve(bundle);
    await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
    const bin = join(dir, 'node_modules/.bin/lunas-sandbox');
    await writeFile(bin, `#!/bin/sh\necho $$ >> '${pids}'\nexec '${node}' '${main}' "$@"\n`);
    await chmod(bin, 0o755);
    // A project of its own, as a merchant's: npx looks for the bin in its node_modules.
    await writeFile(join(dir, 'package.json'), '{ "name": "ci-snippet", "private": true }\n');

    const snippet = await documentedSnippet();
    const lines = snippet.split('\n');
    const ready = lines.findIndex((line) => line.startsWith('until '));
    expect(ready).toBeGreaterThan(0);
    // The snippet's start, trap and readiness loop as written; then a step of this test instead of the app's.
    const port = String(await freePort());
    const start = lines
      .slice(0, ready + 1)
      .join('\n')
      .replaceAll('4010', port)
      .replaceAll('127.0.0.1:3000', '127.0.0.1:9');
    const step = `
node -e 'fetch(process.env.LUNAS_BASE_URL + "/v1/payments/charges", { method: "POST",
  headers: { authorization: "Bearer sk_test_sandbox", "content-type": "application/json" },
  body: JSON.stringify({ payment_method: "qris", amount: 25000 }) }).then((r) => process.exit(r.ok ? 0 : 1))'
node_modules/.bin/lunas-sandbox charges --json > charges.json
`;
    const script = `${start}\n${step}`;

    const first = await sh(script, dir);
    expect(first.stderr).not.toContain('EADDRINUSE');
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'charges.json'), 'utf8'))).toHaveLength(1);

    const second = await sh(script, dir);
    expect(second.stderr).not.toContain('EADDRINUSE');
    expect(second.code, second.stderr).toBe(0);
    // A fresh sandbox: the first run's charge is not in it.
    expect(JSON.parse(await readFile(join(dir, 'charges.json'), 'utf8'))).toHaveLength(1);
  }, 120_000);
});
