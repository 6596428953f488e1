#!/usr/bin/env node
/** `lunas-sandbox`: serves a sandbox until interrupted. */
import { parseArgs } from 'node:util';
import { startSandbox } from './index.js';

const USAGE = `Usage: lunas-sandbox [--port <port>] [--api-key <key>]

Serves the lunas sandbox on 127.0.0.1 until interrupted (Ctrl+C).

Options:
  --port <port>     port to listen on; 0 picks a free port (default 0)
  --api-key <key>   the one valid API key (default sk_test_sandbox)
  -h, --help        show this help
`;

function fail(message: string): never {
  process.stderr.write(`lunas-sandbox: ${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values: { port?: string; 'api-key'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        'api-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!/^\d+$/.test(values.port ?? '0') || port > 65_535) fail('--port must be an integer from 0 to 65535');

  let sandbox;
  try {
    sandbox = await startSandbox({ port, ...(values['api-key'] === undefined ? {} : { apiKey: values['api-key'] }) });
  } catch (error) {
    fail((error as Error).message);
  }
  process.stdout.write(
    `lunas sandbox listening on ${sandbox.url}\nAPI key: ${sandbox.apiKey}\nPress Ctrl+C to stop.\n`,
  );

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
