// Counts failures per key (an account, an address) in a sliding window kept in this process's
// memory: past the limit, the key waits until its oldest failure leaves the window.
export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds to wait before trying again; 0 when allowed. */
  waitSeconds(key: string, now = Date.now()): number {
    const recent = this.recent(key, now);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
  }

  fail(key: string, now = Date.now()): void {
    if (this.failures.size > 100_000) this.prune(now);
    this.failures.set(key, [...this.recent(key, now), now]);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => now - at < this.windowMs);
  }

  private prune(now: number): void {
    for (const [key, times] of this.failures) if (times.every((at) => now - at >= this.windowMs)) this.failures.delete(key);
  }
}
