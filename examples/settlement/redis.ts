/**
 * A Redis server of the run's own: Debian's `redis-server` on a free
 * loopback port, its files in a temporary folder, nothing saved to disk;
 * stopped, and its folder removed, at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

/** A running Redis: its URL, and how to stop it. */
export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts `redis-server` and resolves once it answers PING. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'lunas-settlement-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'];
  const server = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const started = new Promise<void>((resolve, reject) => {
    server.once('spawn', resolve);
    server.once('error', (error) =>
      reject(new Error(`cannot start redis-server (${error.message}): apt-get install redis-server`)),
    );
  });
  await started;
  const url = `redis://127.0.0.1:${port}`;
  await untilAnswers(url, server);
  return {
    url,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function untilAnswers(url: string, server: ChildProcess): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if (server.exitCode !== null) throw new Error(`redis-server exited with code ${server.exitCode}`);
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {}); // refused while it starts: connect() rejects too, and the loop tries again
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') return;
    } catch {
      // Not listening yet.
    } finally {
      probe.disconnect();
    }
    await sleep(50);
  }
  throw new Error('redis-server did not answer within 5 s');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
