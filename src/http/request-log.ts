// One log line per request, written when it is answered (method, URL, status, milliseconds, with
// the request id of its child logger), instead of Fastify's "incoming" and "completed" pair.
// Refused authentications (401, and 429 once an address is past its limit) are sampled: a flood
// of guessed keys writes a few lines a second, each saying how many were left out before it.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Lets `perSecond` events through each second and counts the rest. */
export class LogSampler {
  private second = 0;
  private used = 0;
  private skipped = 0;

  constructor(private readonly perSecond: number) {}

  /** null: leave this one out; otherwise log it, with the count left out since the last one logged. */
  admit(now = Date.now()): { skipped: number } | null {
    const second = Math.floor(now / 1000);
    if (second !== this.second) {
      this.second = second;
      this.used = 0;
    }
    if (this.used >= this.perSecond) {
      this.skipped += 1;
      return null;
    }
    this.used += 1;
    const skipped = this.skipped;
    this.skipped = 0;
    return { skipped };
  }
}

const SAMPLED = new Set([401, 429]);

/**
 * A URL as the log writes it: an invitation's token (the API's and the web page's) is a key to the
 * workspace until it is used, so whoever reads the log must not be able to accept it first.
 */
export function loggedUrl(url: string): string {
  return url.replace(/^(\/api\/v1\/invitations\/|\/invite\/)[^/?#]+/, '$1[token]');
}

export class OneLinePerRequest extends LogController {
  private readonly refusals = new LogSampler(5);

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line: Record<string, unknown> = { method: request.method, url: loggedUrl(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) {
      reply.log.error({ ...line, err: error }, 'request errored');
      return;
    }
    if (SAMPLED.has(reply.statusCode)) {
      const admitted = this.refusals.admit();
      if (!admitted) return;
      if (admitted.skipped > 0) line.refusals_not_logged = admitted.skipped;
    }
    reply.log.info(line, 'request');
  }
}
