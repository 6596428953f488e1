/**
 * Comparisons of a secret (the API key, a form's token) with what a request
 * brings, taking the same steps wherever the two differ. node:crypto's
 * `timingSafeEqual` is not on every runtime the sandbox runs on (workerd
 * without `nodejs_compat`, a browser page), and it throws on a length
 * mismatch; this is plain JavaScript.
 */

const ENCODER = new TextEncoder();

/**
 * Whether `given` has exactly the bytes of `expected`. It reads every byte of
 * `given` and, for each, one byte of `expected` (wrapping around), with no
 * early exit: the time depends on the length of `given` only, which the
 * sender knows already, and tells nothing of where a guess went wrong or of
 * how long the secret is.
 */
export function equalBytes(given: Uint8Array, expected: Uint8Array): boolean {
  const secretLength = expected.length;
  // A length mismatch is folded in, not returned early; a zero length never divides.
  let difference = given.length ^ secretLength;
  const divisor = secretLength === 0 ? 1 : secretLength;
  for (let index = 0; index < given.length; index++) {
    difference |= (given[index] as number) ^ ((expected[index % divisor] ?? 0) as number);
  }
  return difference === 0;
}

/** {@link equalBytes} over the UTF-8 bytes of two strings: `expected` is the secret. */
export function equalInConstantTime(given: string, expected: string): boolean {
  return equalBytes(ENCODER.encode(given), ENCODER.encode(expected));
}
