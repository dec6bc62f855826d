// The cookies of a browser session: the HttpOnly token, and a readable "signed in" flag without
// any secret, so the page's script knows whether to ask for the session.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NewSession } from './sessions.ts';
import { SESSION_COOKIE } from './auth.ts';

const SIGNED_IN_COOKIE = 'hark_signed_in';

export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, created: NewSession): void {
  const options = { path: '/', sameSite: 'lax' as const, secure: request.protocol === 'https', expires: created.session.expires_at };
  reply.setCookie(SESSION_COOKIE, created.token, { ...options, httpOnly: true });
  reply.setCookie(SIGNED_IN_COOKIE, '1', options);
}

export function clearSessionCookies(reply: FastifyReply): FastifyReply {
  return reply.clearCookie(SESSION_COOKIE, { path: '/' }).clearCookie(SIGNED_IN_COOKIE, { path: '/' });
}
