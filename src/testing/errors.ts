/**
 * The sandbox's own error. The sandbox never imports the SDK (it stands for
 * the service, which knows nothing of its clients), so it cannot throw a
 * `LunasError`: its helpers throw this class instead of a plain `Error`.
 */

/**
 * A sandbox helper could not do what was asked: the sandbox was closed, or
 * the charge or account named does not exist or is in the wrong state.
 * Invalid arguments (a bad option, fault or template) throw `TypeError`.
 *
 * @example
 * ```ts
 * import { SandboxError } from 'lunas-sdk/testing';
 *
 * await sandbox.close();
 * expect(() => sandbox.balance('acc_partner')).toThrow(SandboxError);
 * ```
 * @category Testing
 */
export class SandboxError extends Error {
  /** Always `'SandboxError'`: a literal, since a minifier renames the class itself. */
  override name = 'SandboxError';
}

/** The error of every helper called after `close()`; `entry` is the function that made the sandbox. */
export function closedError(helper: string, entry: 'startSandbox' | 'createSandbox'): SandboxError {
  return new SandboxError(
    `The sandbox was closed, so ${helper}() has nothing to act on; start a new one with ${entry}()`,
  );
}
