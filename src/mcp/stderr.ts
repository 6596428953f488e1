/**
 * The MCP server's log: every level on stderr. Over stdio, stdout is the
 * protocol's channel, and a log line there (`console.info` writes to
 * stdout) would break it.
 */
import type { Logger } from '../core/report/log.js';

/** Every level on stderr. */
export const STDERR: Logger = {
  debug: (message) => console.error(message),
  info: (message) => console.error(message),
  warn: (message) => console.error(message),
  error: (message) => console.error(message),
};
