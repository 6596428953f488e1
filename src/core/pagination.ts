/**
 * Re-exports only, for the files that still import these from here:
 * transport.ts (`PageEnvelope`, now in envelope.ts) and CONTRIBUTING's
 * endpoint recipe (`ListParams` in list-spec.ts, `PagePromise` in page.ts).
 * Delete this module once they import from those modules
 * (scripts/check-layers.ts, ALLOWED_FOR_NOW).
 */
export type { PageEnvelope } from './envelope.js';
export type { ListParams } from './list-spec.js';
export type { PagePromise } from './page.js';
