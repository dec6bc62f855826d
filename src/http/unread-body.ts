// A request refused before its body was read (a 415 on the content sniff, a second `file` part, a
// full disk) must not leave the connection waiting for the rest of that body: the next request on
// it would wait until the client gave up. A bounded remainder is read and thrown away, so the
// connection stays usable; a larger one is refused with `Connection: close`.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The most of a refused body read and discarded to keep its connection. */
export const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

export function settleUnreadBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.complete || raw.destroyed || !raw.socket || raw.socket.destroyed) return;
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES) {
    reply.header('connection', 'close');
    return;
  }
  // A parser (busboy) that gave up unpiped or paused the stream: nothing else will read it.
  raw.unpipe();
  let drained = 0;
  raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) raw.socket.destroy();
  });
  raw.on('error', () => {});
  raw.resume();
}
