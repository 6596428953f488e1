/**
 * A value as the sandbox's refusals quote it: what the caller passed, short
 * enough for one line, never a whole object.
 */

/** A string quoted and cut at 40 characters, a number or boolean as written, anything else by its kind. */
export function shown(value: unknown): string {
  if (typeof value === 'string') {
    const chars = Array.from(value);
    return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : value);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : value.toISOString();
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
