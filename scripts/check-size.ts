// CI gate: fails when `import { Client } from 'lunas-sdk'` grows in a
// merchant's bundle. Same bundling as `npm run bench`. The bench reports
// lunas's own bytes against the performance issue's 6,000 B (not met: see
// docs/performance.md); this gate is a ratchet on the total at today's size.
// Raise it only deliberately, saying why in the commit: so far zod's compiled
// object parser (+1.2 KB, validation about 5x faster), the hang and key-leak
// fixes of the reliability suites (+0.4 KB), and the fixes of the defects issue
// (+1.35 KB: validation messages that name the value and the fix, literal error
// names that survive minification, headers in error JSON, one shared abort
// listener per signal, typed errors for null or malformed arguments),
// instanceof across module copies and the Web Worker guard (+0.4 KB), and the
// production features (+3.3 KB: request/response events, raw client.get/post
// with Standard Schema checks, toArray, webhooks.confirm, which brings the
// event parser into a Client-only bundle, and the id-window walk that never
// drops an item), and the attempt timeout through ky's own signal with a
// cancellable body reader (+0.2 KB: about 17 µs less CPU per call, see
// docs/performance.md). Issue 16: webhook body kinds, strict UTF-8 and the id
// check (+168 B); options checked by name with the closest known name
// suggested (+0.57 KB: a misspelt idempotencyKey or maxRetries was ignored);
// plug-ins that can never break a call (+0.55 KB: the logger's check, any
// schema answer read safely and bounded by the timeout, a final event for an
// abort during the retry wait); the key masked in every encoding, without
// exponential backtracking on a backslash-heavy key, with foreign errors
// rebuilt from safe parts (+0.49 KB); together 29,668 B after the merge (+1.67 KB).
// Issue 17's redesign, merged: 29,702 B (+48 B: the one call shape's keys, what
// to send read from own properties so a polluted Object.prototype is never sent).
// Issue 18's walks: 30,424 B (+714 B: since(time) on the newest-first lists with its
// checks and messages, toArray shared by both walks and what inspect prints of a
// PagePromise, 561 B; the real names of Client and Page in the builds, 23 B; a
// response issue saying "missing" or the kind that came, 130 B).
// Issue 19's reference: 30,480 B (+56 B: `new Charges()` refused by name, since the
// published declarations leave internal constructors out and it would compile).
// Closing issues 16-19: 30,987 B (+500 B: the key masked where a refusal quotes a name or
// value the caller gave, 259 B, and where that quote was cut short, 120 B; the walk's order
// warning saying whether an item can be a repeat, 68 B; what inspect prints of a since()
// walk, 54 B; an ArrayBuffer from any realm and since()'s wording, 45 B; Client and Page no
// longer naming themselves, so stack frames keep their names, -46 B).
// Issue 24's wire rules: 31,958 B (+971 B: redirects never followed, a followed one refused;
// a body read chunk by chunk to an 8 MiB cap from a web stream, a Node.js stream, text() or
// lunas' own reader, and ResponseBodyError for a body too large or broken off; the three
// toJSON overrides turning headers into a record folded into LunasError's).
import { bundleClient, ensureBuilt } from '../bench/bundle.js';

const GZIP_BUDGET_BYTES = 32_000;

ensureBuilt();
const { gzipBytes, minifiedBytes, nodeBuiltins } = await bundleClient();
const verdict = gzipBytes <= GZIP_BUDGET_BYTES ? 'within' : 'OVER';
console.log(
  `lunas bundle (Client, esbuild minified, gzip -9): ${gzipBytes} bytes gzip, ${minifiedBytes} minified; ` +
    `${verdict} the ${GZIP_BUDGET_BYTES}-byte budget`,
);
if (nodeBuiltins.length > 0) console.log(`node built-ins imported: ${nodeBuiltins.join(', ')}`);
if (gzipBytes > GZIP_BUDGET_BYTES) process.exit(1);
