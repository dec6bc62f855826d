// Sign-in for browsers: a session in an HttpOnly cookie (SameSite=Lax, Secure over HTTPS), the
// signed-in account with its workspaces, sign-out, and a password change that ends every session.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { presentWorkspace, SessionCard } from './workspace-card.ts';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { workspacesOf } from './memberships.ts';
import { SignInGuard } from './sign-in-guard.ts';
import { changePassword, csrfTokenFor, endSession, signIn, type Session } from './sessions.ts';
import { SESSION_COOKIE } from './auth.ts';
import { clearSessionCookies, setSessionCookies } from './session-cookies.ts';
import { withProblems, withPublicProblems } from '../../http/schemas/common.ts';

const SignInBody = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false });
const PasswordBody = Type.Object(
  { current_password: Type.String({ minLength: 1, maxLength: 256 }), new_password: Type.String({ minLength: 8, maxLength: 256 }) },
  { additionalProperties: false },
);
const tags = ['sessions'];

export const sessionRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const throttle = new SignInGuard();

  const setCookie = setSessionCookies;

  const card = async (session: Session, token: string) => ({
    account: { id: session.account_id, email: session.email },
    csrf_token: csrfTokenFor(token),
    expires_at: session.expires_at,
    workspaces: (await workspacesOf(ctx, session.account_id)).map((w) => presentWorkspace(w, w.role, ctx.config.retention)),
  });

  const current = (request: FastifyRequest): Session => {
    if (!request.principal?.session) throw new AppError('account_required', 'this route is for a signed-in browser');
    // The auth hook (auth.ts) puts the whole session there; the request's type knows its id only.
    return request.principal.session as Session;
  };

  app.post(
    '/api/v1/sessions',
    {
      config: { public: true },
      schema: { tags, summary: 'Sign in: sets the session cookie', body: SignInBody, response: withPublicProblems({ 201: SessionCard }, 400, 401, 415, 429) },
    },
    async (request, reply) => {
      const created = await signIn(ctx, throttle, request.body, request.ip);
      setCookie(request, reply, created);
      return reply.code(201).send(await card(created.session, created.token));
    },
  );

  app.get(
    '/api/v1/sessions/current',
    { config: { account: true }, schema: { tags, summary: 'The signed-in account, its workspaces and its CSRF token', response: withProblems({ 200: SessionCard }) } },
    async (request) => card(current(request), request.cookies[SESSION_COOKIE] ?? ''),
  );

  app.delete(
    '/api/v1/sessions/current',
    { config: { account: true }, schema: { tags, summary: 'Sign out: ends the session and clears the cookie', response: withProblems({ 204: Type.Null() }) } },
    async (request, reply) => {
      await endSession(ctx, current(request).id);
      return clearSessionCookies(reply).code(204).send(null);
    },
  );

  app.put(
    '/api/v1/account/password',
    {
      config: { account: true },
      schema: { tags, summary: 'Change the password: every session of the account ends, this browser gets a new one', body: PasswordBody, response: withProblems({ 200: SessionCard }) },
    },
    async (request, reply) => {
      const created = await changePassword(ctx, throttle, current(request).account_id, { current: request.body.current_password, next: request.body.new_password }, request.ip);
      setCookie(request, reply, created);
      return card(created.session, created.token);
    },
  );
};
