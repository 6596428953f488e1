import { redact, type Secret } from './secrets.js';

/** Levels, from the most to the least verbose. `off` silences the SDK. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/**
 * Where log lines go. `console` fits; so do pino, winston and most loggers.
 * lunas calls each method with one string, prefixed `lunas: `, the API key masked.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 *
 * const client = new Client({ logger: pino(), logLevel: 'info' });
 * ```
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

const rank: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, off: 4 };

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(rank, value);
}

/** Writes lines at or above `level`, with every form of the API key masked. */
export class Log {
  readonly #logger: Logger;
  readonly #threshold: number;
  readonly #secret: Secret;

  constructor(logger: Logger, level: LogLevel, secret: Secret) {
    this.#logger = logger;
    this.#threshold = rank[level];
    this.#secret = secret;
  }

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return rank[level] >= this.#threshold;
  }

  write(level: Exclude<LogLevel, 'off'>, message: string): void {
    if (!this.enabled(level)) return;
    // Lines are built by the SDK and never include headers, but a URL or a
    // service message could still echo the key back: mask it regardless.
    this.#logger[level](`lunas: ${redact(message, this.#secret)}`);
  }
}
