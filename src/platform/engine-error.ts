// The failure every engine throws for a known cause; `retryable` says whether trying again may help.
export class EngineError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}
