// Logging: the levels, the merchant's logger checked once at construction (a level it has
// no method for is dropped), and every line prefixed `lunas: ` with the API key masked.
import { LunasError } from './errors.js';
import { redact, type Secret } from './secrets.js';

/**
 * Levels, from the most to the least verbose. `off` silences the SDK.
 * @category Client
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/**
 * Where log lines go. `console` fits; so do pino, winston and most loggers.
 * lunas calls each method with one string, prefixed `lunas: `, the API key masked.
 * At run time a logger may lack some of the methods (not all): lines of a
 * level it has no method for are dropped, never sent to another method. A
 * method that throws or rejects loses its line and never affects a call.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 *
 * const client = new Client({ logger: pino(), logLevel: 'info' });
 * ```
 * @category Client
 */
export interface Logger {
  /** Verbose detail; lunas logs every attempt of every request at this level. */
  debug(message: string, ...details: unknown[]): void;
  /** Notable events; lunas logs every retry, with its wait and cause, at this level. */
  info(message: string, ...details: unknown[]): void;
  /** Problems that did not fail the call. */
  warn(message: string, ...details: unknown[]): void;
  /** Failures. */
  error(message: string, ...details: unknown[]): void;
}

type WriteLevel = Exclude<LogLevel, 'off'>;

const rank: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };
const WRITE_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Whether `value` names a level: how `logLevel` and `LUNAS_LOG` are read. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(rank, value);
}

/**
 * The `logger` option, checked once at construction: an object (or function)
 * whose `debug`, `info`, `warn` and `error` are each a function or absent,
 * at least one present. Returns the levels it has a method for, so that
 * writing a line never calls a method the logger lacks.
 *
 * @throws {LunasError} for anything else, such as `{}` or the string `'console'`.
 */
export function checkLogger(logger: unknown): ReadonlySet<WriteLevel> {
  const levels = new Set<WriteLevel>();
  let valid = (typeof logger === 'object' && logger !== null) || typeof logger === 'function';
  try {
    for (const level of WRITE_LEVELS) {
      const method = valid ? (logger as Record<string, unknown>)[level] : undefined;
      if (typeof method === 'function') levels.add(level);
      else if (method != null) valid = false;
    }
  } catch {
    valid = false; // A getter or Proxy that throws: nothing lunas can call safely.
  }
  if (!valid || levels.size === 0) {
    throw new LunasError(
      'The logger option must be an object with debug, info, warn or error methods, such as console',
    );
  }
  return levels;
}

/** Writes lines at or above `level`, with every form of the API key masked. */
export class Log {
  readonly #logger: Logger;
  readonly #threshold: number;
  readonly #secret: Secret;
  readonly #levels: ReadonlySet<WriteLevel>;
  /**
   * Whether debug lines are written, computed once: the transport reads it on
   * every call, as a field, to skip building lines nobody reads.
   */
  readonly debugEnabled: boolean;

  /** `levels`: those `logger` has a method for, from {@link checkLogger}. */
  constructor(logger: Logger, levels: ReadonlySet<WriteLevel>, level: LogLevel, secret: Secret) {
    this.#logger = logger;
    this.#levels = levels;
    this.#threshold = rank[level];
    this.#secret = secret;
    this.debugEnabled = this.enabled('debug');
  }

  /** Whether a line at `level` would be written: callers skip building lines nobody reads. */
  enabled(level: WriteLevel): boolean {
    return rank[level] >= this.#threshold && this.#levels.has(level);
  }

  /**
   * Never throws, and never leaves a rejected promise behind: a logger that
   * fails loses the line, and the call goes on. Nothing reports the failure,
   * since the logger is where lunas reports, and writing to `console` behind
   * a logger given to replace it would be a surprise.
   */
  write(level: WriteLevel, message: string): void {
    if (!this.enabled(level)) return;
    try {
      // Looked up at each line, not kept from construction: pino swaps its
      // methods when its own level changes.
      // Lines are built by the SDK and never include headers, but a URL or a
      // service message could still echo the key back: mask it regardless.
      const result: unknown = this.#logger[level](`lunas: ${redact(message, this.#secret)}`);
      if (isThenable(result)) result.then(undefined, ignore);
    } catch {
      // The line is lost; see above.
    }
  }
}

/** Whether `value` has a `then` method; reading it may throw, which the caller catches. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function ignore(): void {}
