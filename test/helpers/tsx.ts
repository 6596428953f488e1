/**
 * A TypeScript program of this repository (an example, a test's own program)
 * run as a process: Node.js with tsx loaded into it. The commands run bundled
 * instead (commands.ts).
 */

/**
 * `node --import tsx`, not the tsx command: that one starts a second Node.js
 * process to run the program in, a fraction of a second more per run, and
 * relays signals, so that under load a relayed SIGTERM could end the wrapper
 * before the program's own handler ran (exit 143).
 */
export const NODE_WITH_TSX = [process.execPath, '--import', 'tsx'] as const;
