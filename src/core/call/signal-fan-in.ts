/**
 * The caller's signal, fanned in: one listener on an `AbortSignal` however
 * many calls of lunas, and their waits between attempts, wait on it.
 *
 * Merchants share one `AbortSignal` across many parallel calls (a request's
 * or a shutdown's). A listener per attempt and per retry wait would pass
 * Node's limit of 10 listeners and print `MaxListenersExceededWarning`, a
 * false memory-leak alarm. Here the calls in flight on a signal share a single
 * listener, added with the first and removed with the last, so nothing stays
 * on the signal once they end. `AbortSignal.any` would also avoid the
 * warning, but costs far more per call (docs/performance.md), and the
 * combined signals it creates pile up on a long-lived source signal.
 */
interface Waiters {
  readonly callbacks: Set<() => void>;
  readonly listener: () => void;
}

const waitersBySignal = new WeakMap<AbortSignal, Waiters>();

/**
 * Calls `callback` once when `signal` aborts, unless the returned function is
 * called first. The caller checks `signal.aborted` beforehand: a signal that
 * has already aborted fires no event.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let waiters = waitersBySignal.get(signal);
  if (waiters === undefined) {
    const callbacks = new Set<() => void>();
    const listener = () => {
      waitersBySignal.delete(signal);
      // A copy: a callback may end its call, and with it another registration.
      for (const waiting of [...callbacks]) waiting();
    };
    waiters = { callbacks, listener };
    waitersBySignal.set(signal, waiters);
    signal.addEventListener('abort', listener, { once: true });
  }
  const { callbacks, listener } = waiters;
  callbacks.add(callback);
  return () => {
    if (!callbacks.delete(callback) || callbacks.size > 0) return;
    signal.removeEventListener('abort', listener);
    if (waitersBySignal.get(signal)?.listener === listener) waitersBySignal.delete(signal);
  };
}
