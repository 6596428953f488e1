// Runs browser-bundle.mjs (bundled as lunas.js beside this file) in headless
// Chromium against a sandbox on 127.0.0.1:
//
//   node browser-driver.mjs <chromium binary>
//
// Serves the page, the bundle, the sandbox's URL and key (/config) and a
// same-origin path to the sandbox (/v1/...), then waits for the page to POST
// its report to /result. Chromium resolves no name but 127.0.0.1.
/* global console, process, fetch, setTimeout, clearTimeout, Buffer */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { startSandbox } from 'lunas-sdk/testing';

const [chromiumBinary] = process.argv.slice(2);

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

async function bodyOf(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const watchdog = setTimeout(() => {
  console.error('browser: timed out');
  process.exit(1);
}, 60_000);
const sandbox = await startSandbox();
let reportReceived;
const report = new Promise((resolve) => (reportReceived = resolve));

const server = createServer(async (request, response) => {
  const origin = `http://127.0.0.1:${server.address().port}`;
  if (request.url === '/') {
    response.setHeader('content-type', 'text/html');
    response.end('<!doctype html><title>lunas</title><script src="/lunas.js"></script>');
  } else if (request.url === '/lunas.js') {
    response.setHeader('content-type', 'text/javascript');
    response.end(readFileSync('lunas.js'));
  } else if (request.url === '/config') {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ apiKey: sandbox.apiKey, baseURL: origin }));
  } else if (request.url === '/result') {
    reportReceived(JSON.parse(await bodyOf(request)));
    response.end();
  } else if (request.url.startsWith('/v1/')) {
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        ([name]) => !['host', 'connection', 'content-length', 'origin', 'referer'].includes(name),
      ),
    );
    const body = request.method === 'GET' ? undefined : await bodyOf(request);
    const answer = await fetch(`${sandbox.url}${request.url}`, { method: request.method, headers, body });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    response.end(Buffer.from(await answer.arrayBuffer()));
  } else {
    response.statusCode = 404;
    response.end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

// A fresh profile in the working directory (the matrix's, removed after the run).
const profile = mkdtempSync('chromium-profile-');
const chromium = spawn(
  chromiumBinary,
  [
    '--headless',
    '--no-sandbox', // CI runs as root
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    `--user-data-dir=${join(process.cwd(), profile)}`,
    `http://127.0.0.1:${server.address().port}/`,
  ],
  { stdio: 'ignore' },
);
try {
  const result = await report;
  console.log(JSON.stringify(result));
  assert(result.error === undefined, `the page failed: ${result.error}`);
  assert(result.page === 'refused', `page: ${result.page}`);
  assert(result.inProcess === 'walked 61, success', `createSandbox in the page: ${result.inProcess}`);
  for (const kind of ['dedicated', 'shared']) {
    assert(result[kind].guard === 'refused', `${kind} worker: ${result[kind].guard}`);
    assert(
      result[kind].allowed === 'NotFoundError',
      `${kind} worker with dangerouslyAllowBrowser: ${result[kind].allowed}`,
    );
  }
} finally {
  if (chromium.exitCode === null) {
    chromium.kill();
    await once(chromium, 'exit');
  }
  server.close();
  await sandbox.close();
  clearTimeout(watchdog);
}
console.log('OK browser');
