/**
 * `instanceof` across copies of lunas-sdk. A process can hold two (its ESM
 * and CJS builds, or two installed versions), so a lunas error class is
 * recognised by a brand shared by every copy, a name stored under
 * `Symbol.for('lunas-sdk.error-class')`, not by class identity alone.
 */
import type { LunasError } from './errors.js';

/** The key of each lunas error class's brand: `Symbol.for` gives every copy of lunas-sdk the same symbol. */
const ERROR_BRAND = Symbol.for('lunas-sdk.error-class');

/** Gives each class its brand and its `name`: the name it is exported under. */
export function brandErrorClasses(classes: Record<string, abstract new (...args: never[]) => LunasError>): void {
  for (const [brand, errorClass] of Object.entries(classes)) {
    Object.defineProperty(errorClass, ERROR_BRAND, { value: brand });
    // The name as a literal, on the prototype: a minifier renames the classes themselves.
    Object.defineProperty(errorClass.prototype, 'name', { value: brand, writable: true, configurable: true });
  }
}

function ownBrand(candidate: unknown): unknown {
  return typeof candidate === 'function' ? Object.getOwnPropertyDescriptor(candidate, ERROR_BRAND)?.value : undefined;
}

/**
 * The ordinary check, or, for a branded class, whether some class in the
 * value's prototype chain carries the same brand (the same class in another copy).
 */
export function isInstanceOrBranded(errorClass: object, value: unknown): boolean {
  try {
    if (Function.prototype[Symbol.hasInstance].call(errorClass, value)) return true;
    const brand = ownBrand(errorClass);
    if (typeof brand !== 'string' || typeof value !== 'object' || value === null) return false;
    for (let link: unknown = Object.getPrototypeOf(value); link !== null; link = Object.getPrototypeOf(link)) {
      if (ownBrand(Object.getOwnPropertyDescriptor(link, 'constructor')?.value) === brand) return true;
    }
    return false;
  } catch {
    // A revoked Proxy, or one whose traps throw: a foreign value, and the check must not throw on it.
    return false;
  }
}
