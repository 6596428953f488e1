// Runs workerd-worker.mjs (bundled as worker.js beside this file) in workerd
// against a sandbox on 127.0.0.1, with or without the nodejs_compat flag:
//
//   node workerd-driver.mjs <workerd binary> plain|nodejs_compat
//
// The compatibility date predates the one from which nodejs_compat is on by
// default, so the plain variant really has no Node.js APIs (checked below).
/* global console, process, fetch, setTimeout, clearTimeout */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { startSandbox } from 'lunas-sdk/testing';

const COMPATIBILITY_DATE = '2026-07-01';
const [workerdBinary, variant] = process.argv.slice(2);
const nodeCompat = variant === 'nodejs_compat';
const label = `workerd ${variant}`;

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const config = `${variant}.capnp`;
writeFileSync(
  config,
  `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # fetch() reaches loopback addresses only: the sandbox listens on 127.0.0.1.
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "worker.js")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  compatibilityFlags = [${nodeCompat ? '"nodejs_compat"' : ''}],
  globalOutbound = "loopback",
);
`,
);

/** The port workerd reports on its control descriptor once the socket listens. */
function listeningPort(control) {
  return new Promise((resolve, reject) => {
    createInterface({ input: control }).on('line', (line) => {
      const message = JSON.parse(line);
      if (message.event === 'listen' && message.socket === 'http') resolve(message.port);
    });
    control.on('close', () => reject(new Error('workerd exited before listening')));
  });
}

const watchdog = setTimeout(() => {
  console.error(`${label}: timed out`);
  process.exit(1);
}, 45_000);
const sandbox = await startSandbox();
const workerd = spawn(workerdBinary, ['serve', config, '--control-fd=3'], {
  stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
});
try {
  sandbox.seedCharges(120);
  const port = await listeningPort(workerd.stdio[3]);
  const step = async (name, input = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      body: JSON.stringify({ step: name, url: sandbox.url, apiKey: sandbox.apiKey, ...input }),
    });
    const body = await response.json();
    assert(response.ok, `step ${name} failed in the Worker: ${body.error}`);
    return body;
  };

  const { chargeId } = await step('create');
  await sandbox.payCharge(chargeId);
  const result = await step('rest', { chargeId });
  assert(sandbox.balance('acc_partner') === '125000.00', `partner balance ${sandbox.balance('acc_partner')}`);
  assert(result.nodeCompat === nodeCompat, `Node.js APIs ${result.nodeCompat ? 'present' : 'absent'} in ${label}`);
  const elsewhere = await startSandbox();
  try {
    const location = `${elsewhere.url}/v1/transfers`;
    sandbox.inject({ kind: 'status', status: 307, path: '/v1/transfers', headers: { location } });
    const redirected = await step('redirect');
    assert(redirected.status === 307, `a 307 became an APIError with status ${redirected.status}`);
    assert(redirected.location === location, `the APIError's Location is ${redirected.location}`);
    assert(elsewhere.requests.length === 0, `the redirect's target saw ${elsewhere.requests.length} requests`);
  } finally {
    await elsewhere.close();
  }
  const inProcess = await step('inProcess');
  assert(inProcess.requests === 5, `the in-process sandbox saw ${inProcess.requests} requests, expected 5`);
  // lunas loads and works either way; it publishes on its tracing channels only where nodejs_compat offers them.
  const tracing = nodeCompat ? 'published' : 'unavailable';
  assert(inProcess.tracing === tracing, `lunas:operation ${inProcess.tracing} in ${label}, expected ${tracing}`);
} finally {
  workerd.kill();
  await sandbox.close();
  clearTimeout(watchdog);
}
console.log(`OK ${label}`);
