// The runs this process is executing, so a cancel made here aborts the engine at once; a cancel
// made by another process is seen by the run's watch within seconds (see run-job.ts).
const running = new Map<string, AbortController>();

export function registerActive(runId: string, controller: AbortController): () => void {
  running.set(runId, controller);
  return () => {
    if (running.get(runId) === controller) running.delete(runId);
  };
}

export function abortActive(runId: string): void {
  running.get(runId)?.abort(new Error('the run was cancelled'));
}
