// lunas-sdk in Chromium: a page, and the dedicated and shared Web Workers it
// starts, each built from this one bundle (esbuild, browser conditions, IIFE so
// the workers are classic ones with importScripts). Without
// dangerouslyAllowBrowser the client must refuse to be built in all three; with
// it, a worker's client reaches the sandbox (through browser-driver.mjs, which
// serves this page and forwards /v1/ to the sandbox, so no CORS is involved).
// The page also runs createSandbox in process: create, pay and list through its fetch.
/* global document, fetch, self, SharedWorker, Worker */
import { Client, LunasError, NotFoundError } from 'lunas-sdk';
import { createSandbox } from 'lunas-sdk/testing';
import { inProcessScenario } from './in-process.mjs';

/** 'refused' when the browser guard refused the client, else what happened instead. */
function construction(config) {
  try {
    new Client(config);
    return 'constructed';
  } catch (error) {
    return error instanceof LunasError && error.message.includes('dangerouslyAllowBrowser') ? 'refused' : String(error);
  }
}

/** What a worker reports: the guard's verdict, and a request made with the guard lifted. */
async function workerReport(config) {
  const client = new Client({ ...config, dangerouslyAllowBrowser: true, maxRetries: 0 });
  const missing = await client.charges.retrieve('ch_missing').catch((error) => error);
  return {
    guard: construction(config),
    allowed: missing instanceof NotFoundError ? 'NotFoundError' : String(missing),
  };
}

function fromWorker(start) {
  return new Promise((resolve) => {
    start(resolve, (event) => resolve({ guard: `worker failed: ${event.message}` }));
  });
}

/** 'walked N, success' once the in-process scenario passes in the page, else its error. */
async function inProcess() {
  try {
    const { walked, paid } = await inProcessScenario({ Client, createSandbox }, { dangerouslyAllowBrowser: true });
    return `walked ${walked}, ${paid}`;
  } catch (error) {
    return String(error);
  }
}

async function page() {
  const config = await (await fetch('/config')).json();
  const [dedicated, shared] = await Promise.all([
    fromWorker((resolve, fail) => {
      const worker = new Worker('/lunas.js');
      worker.onmessage = ({ data }) => resolve(data);
      worker.onerror = fail;
      worker.postMessage(config);
    }),
    fromWorker((resolve, fail) => {
      const worker = new SharedWorker('/lunas.js');
      worker.port.onmessage = ({ data }) => resolve(data);
      worker.onerror = fail;
      worker.port.postMessage(config);
    }),
  ]);
  const report = { page: construction(config), dedicated, shared, inProcess: await inProcess() };
  await fetch('/result', { method: 'POST', body: JSON.stringify(report) });
}

if (typeof document === 'object') {
  page().catch((error) => fetch('/result', { method: 'POST', body: JSON.stringify({ error: String(error) }) }));
} else if (typeof self.postMessage === 'function' && !('onconnect' in self)) {
  self.onmessage = async ({ data }) => self.postMessage(await workerReport(data));
} else {
  self.onconnect = ({ ports: [port] }) => {
    port.onmessage = async ({ data }) => port.postMessage(await workerReport(data));
  };
}
