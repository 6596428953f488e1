// One process, two copies of lunas-sdk, as a bundler or a mixed ESM/CommonJS
// application loads them: the ESM build through `import`, the CommonJS build
// through `require`. An error thrown by either copy's client is an instance of
// the other copy's classes, and of none it does not belong to. Each build keeps
// the classes' real names (a bundler renames a class that refers to itself,
// `_Client`), in `constructor.name`, `util.inspect` and its methods' stack frames.
/* global console, process, setTimeout, clearTimeout */
import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import * as esm from 'lunas-sdk';
import { startSandbox } from 'lunas-sdk/testing';

const cjs = createRequire(import.meta.url)('lunas-sdk');

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

const watchdog = setTimeout(() => {
  console.error('esm+cjs: timed out');
  process.exit(1);
}, 30_000);
const sandbox = await startSandbox();
try {
  assert(esm.NotFoundError !== cjs.NotFoundError, 'import and require gave the same module: nothing to check');
  for (const [thrower, other, direction] of [
    [cjs, esm, 'CJS error vs ESM classes'],
    [esm, cjs, 'ESM error vs CJS classes'],
  ]) {
    const client = new thrower.Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url, maxRetries: 0 });
    const missing = await client.charges.retrieve('ch_missing').catch((error) => error);
    assert(missing instanceof thrower.NotFoundError, `${direction}: expected a NotFoundError, got ${missing}`);
    for (const name of ['NotFoundError', 'APIError', 'LunasError']) {
      assert(missing instanceof other[name], `${direction}: not an instance of ${name}`);
    }
    for (const name of ['BadRequestError', 'AuthenticationError', 'RequestValidationError', 'EventValidationError']) {
      assert(!(missing instanceof other[name]), `${direction}: wrongly an instance of ${name}`);
    }
    const invalid = await client.charges.create({ payment_method: 'qris', amount: 0 }).catch((error) => error);
    assert(invalid instanceof other.RequestValidationError, `${direction}: not a RequestValidationError: ${invalid}`);
    assert(!(invalid instanceof other.APIError), `${direction}: a validation error is not an APIError`);
  }
  for (const [build, label] of [
    [esm, 'ESM'],
    [cjs, 'CJS'],
  ]) {
    const client = new build.Client({ apiKey: sandbox.apiKey, baseURL: sandbox.url, maxRetries: 0 });
    assert(client.constructor.name === 'Client', `${label}: the client's class is named ${client.constructor.name}`);
    const page = await client.charges.list({ pagesize: 1 });
    assert(page.constructor.name === 'Page', `${label}: a page's class is named ${page.constructor.name}`);
    assert(inspect(page).startsWith('Page {'), `${label}: a page inspects as ${inspect(page)}`);
    const list = inspect(client.payouts.list({ pagesize: 5 }));
    assert(
      list.startsWith('PagePromise { GET /v1/payouts, page 1, pagesize 5'),
      `${label}: a list inspects as ${list}`,
    );
    const refused = (() => {
      try {
        return new build.Client({ apiKey: sandbox.apiKey, baseURL: 'ftp://lunas.test' });
      } catch (error) {
        return error;
      }
    })();
    assert(refused.name === 'LunasError', `${label}: the error is named ${refused.name}`);
    assert(/\bClient\b/.test(refused.stack), `${label}: the stack does not name Client: ${refused.stack}`);
    assert(!/\b_[A-Z]\w*/.test(refused.stack), `${label}: a renamed class in the stack: ${refused.stack}`);
    // A method's frame names the class V8 knows, not its name property: `at Client.on`, never `at _Client.on`.
    const methodStacks = [
      stackOf(() => client.on('no-such-event', () => undefined)),
      await client.charges
        .list({ pagesize: 100, page: 1_000 })
        .then((empty) => empty.getNextPage())
        .then(
          () => '',
          (error) => String(error.stack),
        ),
    ];
    // V8's frames (Node.js, Deno) name the receiver's class; JavaScriptCore's (Bun) name the method alone.
    if (!('Bun' in globalThis)) {
      assert(/ at Client\.on \(/.test(methodStacks[0]), `${label}: Client.on is not in ${methodStacks[0]}`);
      assert(
        / at Page\.getNextPage \(/.test(methodStacks[1]),
        `${label}: Page.getNextPage is not in ${methodStacks[1]}`,
      );
    }
    for (const stack of methodStacks) assert(!/\b_[A-Z]\w*\./.test(stack), `${label}: a renamed class: ${stack}`);
  }
  assert(!(new Error('plain') instanceof esm.LunasError), 'a plain Error is not a LunasError');
  class MerchantError extends cjs.LunasError {}
  assert(new MerchantError('x') instanceof esm.LunasError, "a merchant's subclass of a CJS class is an ESM LunasError");
  assert(
    !(new esm.LunasError('x') instanceof MerchantError),
    "a LunasError is not an instance of a merchant's subclass",
  );
} finally {
  await sandbox.close();
  clearTimeout(watchdog);
}
console.log('OK esm+cjs');

/** The stack of what `run` throws, or '' when it throws nothing. */
function stackOf(run) {
  try {
    run();
    return '';
  } catch (error) {
    return String(error.stack);
  }
}
