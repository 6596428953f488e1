/**
 * Kinds of value recognised whatever realm made them: a webhook body may come
 * from another realm's constructors (a `vm` context, Jest's environment),
 * where `instanceof` and prototype identity fail.
 */

const arrayBufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')!.get!;

/** An `ArrayBuffer`: its `byteLength` getter accepts only a real one, from any realm. */
export function isArrayBuffer(value: unknown): value is ArrayBuffer {
  try {
    arrayBufferByteLength.call(value);
    return true;
  } catch {
    return false;
  }
}

/** A plain object: its prototype is `null` or an `Object.prototype`. */
export function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}
