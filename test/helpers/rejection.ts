/**
 * The error a promise rejects with, or a function throws, for tests that
 * inspect it beyond `rejects.toThrow` / `toThrow`.
 */
import { expect } from 'vitest';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ErrorClass<E> = abstract new (...args: any[]) => E;

/** Awaits a promise that must reject, and returns what it rejected with. */
export async function rejection(promise: Promise<unknown>): Promise<unknown>;
/** Awaits a promise that must reject with an instance of `Class`, and returns the error. */
export async function rejection<E>(promise: Promise<unknown>, Class: ErrorClass<E>): Promise<E>;
export async function rejection<E>(promise: Promise<unknown>, Class?: ErrorClass<E>): Promise<unknown> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    if (Class) expect(error).toBeInstanceOf(Class);
    return error;
  }
  const expected = Class ? `a rejection with ${Class.name}` : 'a rejection';
  throw new Error(`expected ${expected}, but it resolved to ${shown(value)}`);
}

/** Runs `run`, which must throw, and returns what it threw. */
export function thrown(run: () => unknown): unknown;
/** Runs `run`, which must throw an instance of `Class`, and returns the error. */
export function thrown<E>(run: () => unknown, Class: ErrorClass<E>): E;
export function thrown<E>(run: () => unknown, Class?: ErrorClass<E>): unknown {
  let value: unknown;
  try {
    value = run();
  } catch (error) {
    if (Class) expect(error).toBeInstanceOf(Class);
    return error;
  }
  const expected = Class ? `a throw of ${Class.name}` : 'a throw';
  throw new Error(`expected ${expected}, but it returned ${shown(value)}`);
}

/** The resolved or returned value, for the failure message; never throws. */
function shown(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
