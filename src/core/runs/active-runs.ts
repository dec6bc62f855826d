// The runs this process is executing, so a cancel made here aborts the engine at once; a cancel
// made by another process is seen by the run's watch within seconds (see run-job.ts). A worker
// shutting down aborts the ones still running after its grace with `ShuttingDown`: they are given
// back to the queue, not cancelled.
const running = new Map<string, AbortController>();

export class ShuttingDown extends Error {
  constructor() {
    super('the worker is shutting down');
  }
}

export function registerActive(runId: string, controller: AbortController): () => void {
  running.set(runId, controller);
  return () => {
    if (running.get(runId) === controller) running.delete(runId);
  };
}

export function abortActive(runId: string): void {
  running.get(runId)?.abort(new Error('the run was cancelled'));
}

/** Aborts every run this process executes, to give them back; returns how many. */
export function handBackActive(): number {
  for (const controller of running.values()) controller.abort(new ShuttingDown());
  return running.size;
}
