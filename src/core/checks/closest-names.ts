/**
 * What an unknown name is answered with: the closest known names (a likely
 * typo: `maxRetry` for `maxRetries`), or the known names when none is close.
 * Shared by the options' check (options.ts) and the request parameters'
 * (schemas.ts). Names only: an option's value may be a secret.
 */
import { closestNames } from '../../shared/closest-names.js';
import { describeValue } from '../report/describe-value.js';

/**
 * `Unknown option "maxRetry": did you mean "maxRetries"?`, or the known names
 * when none is close. Names only: an option's value may be a secret.
 */
export function unknownOptionMessage(name: string, known: readonly string[]): string {
  return `Unknown option ${describeValue(name)}${nearestHint(name, known, 'options')}`;
}

/**
 * `Unknown field: did you mean "pagesize"?` for a request field, as options
 * get: the fields map already names the field, so the message does not.
 */
export function unknownFieldMessage(name: string, known: readonly string[]): string {
  return `Unknown field${nearestHint(name, known, 'fields')}`;
}

/** `: did you mean "x"?`, or the known names when none is close. */
function nearestHint(name: string, known: readonly string[], kind: string): string {
  const closest = closestNames(name, known);
  return closest.length > 0 ? `: did you mean "${closest.join('" or "')}"?` : `; known ${kind}: ${known.join(', ')}`;
}
