// The one mutex of the codebase (async-mutex): PGlite's single connection is held from BEGIN to
// COMMIT, and a llama.cpp model runs one generation at a time. A waiter whose signal aborts
// leaves the queue without ever holding the lock.
import { Mutex } from 'async-mutex';

export { Mutex };

export async function runExclusive<T>(mutex: Mutex, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  signal?.throwIfAborted();
  const acquiring = mutex.acquire();
  let release: () => void;
  if (!signal) release = await acquiring;
  else {
    try {
      release = await new Promise<() => void>((resolve, reject) => {
        const onAbort = (): void => reject(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
        void acquiring.then((r) => {
          signal.removeEventListener('abort', onAbort);
          resolve(r);
        });
      });
    } catch (error) {
      // Our turn will still come: give it straight back.
      void acquiring.then((r) => r());
      throw error;
    }
  }
  try {
    return await task();
  } finally {
    release();
  }
}
