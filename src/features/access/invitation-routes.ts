// Invitations by link: an owner invites an e-mail address with a role; the link's page describes
// the invitation and accepting it joins the workspace (creating the account when needed) and
// signs the browser in.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { roles } from '../../scopes.ts';
import { acceptInvitation, createInvitation, describeInvitation, listInvitations, revokeInvitation } from './invitations.ts';
import { actingAccount, assertCanGrantRole, sharedLimit } from './auth.ts';
import { RateLimiter } from '../../http/rate-limit.ts';
import { DateTime, StringEnum, withProblems, withPublicProblems, WorkspaceParams } from '../../http/schemas/common.ts';
import { setSessionCookies } from './session-cookies.ts';
import { SignInGuard } from './sign-in-guard.ts';

const tags = ['workspaces'];
const InvitationCard = Type.Object(
  { id: Type.String({ description: 'inv-<uuid>' }), email: Type.String(), role: StringEnum(roles), created_at: DateTime, expires_at: DateTime },
  { $id: 'Invitation' },
);
const CreateBody = Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }), role: StringEnum(roles) }, { additionalProperties: false });
const TokenParams = Type.Object({ token: Type.String() });
const AcceptBody = Type.Object({ password: Type.String({ minLength: 8, maxLength: 256, description: 'The account\'s password, or the new account\'s' }) }, { additionalProperties: false });
/** Accepting needs no credentials, so it is limited per client address. */
const ACCEPTS_PER_MINUTE = 20;

const present = (i: { id: string; email: string; role: string; created_at: Date; expires_at: Date }) => ({ id: i.id, email: i.email, role: i.role as (typeof roles)[number], created_at: i.created_at, expires_at: i.expires_at });

export const invitationRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const P = '/api/v1/workspaces/:workspace_id/invitations';
  const config = { scope: 'keys:manage' as const };
  const limiter = new RateLimiter(ACCEPTS_PER_MINUTE, sharedLimit(ctx, 'invitation'));
  const guard = new SignInGuard();
  app.addHook('onClose', async () => limiter.stop());

  app.post(
    P,
    {
      config,
      schema: {
        tags,
        summary: 'Invite an e-mail address with a role: a single-use link, valid 7 days (its token is shown once); 409 already_member for a member',
        params: WorkspaceParams,
        body: CreateBody,
        response: withProblems({ 201: Type.Composite([InvitationCard, Type.Object({ token: Type.String(), url: Type.String({ description: 'The page to open to accept' }) })]) }, 409),
      },
    },
    async (request, reply) => {
      assertCanGrantRole(request, request.body.role);
      const { invitation, token } = await createInvitation(ctx, request.params.workspace_id, request.body, actingAccount(request));
      const url = `${request.protocol}://${request.headers.host ?? `${ctx.config.host}:${ctx.config.port}`}/invite/${token}`;
      return reply.code(201).send({ ...present(invitation), token, url });
    },
  );
  app.get(P, { config, schema: { tags, summary: 'Open invitations', params: WorkspaceParams, response: withProblems({ 200: Type.Object({ data: Type.Array(InvitationCard) }) }) } }, async (request) => ({
    data: (await listInvitations(ctx, request.params.workspace_id)).map(present),
  }));
  app.delete(
    `${P}/:invitation_id`,
    { config, schema: { tags, summary: 'Revoke an invitation', params: Type.Object({ workspace_id: Type.String(), invitation_id: Type.String() }), response: withProblems({ 204: Type.Null() }, 404) } },
    async (request, reply) => {
      await revokeInvitation(ctx, request.params.workspace_id, request.params.invitation_id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/invitations/:token',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'What an invitation link offers',
        params: TokenParams,
        response: withPublicProblems({ 200: Type.Object({ workspace_name: Type.String(), email: Type.String(), role: StringEnum(roles), expires_at: DateTime, account_exists: Type.Boolean() }) }, 404),
      },
    },
    async (request) => describeInvitation(ctx, request.params.token),
  );
  app.post(
    '/api/v1/invitations/:token/accept',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Accept an invitation: joins the workspace (creating the account if there is none) and sets the session cookie',
        params: TokenParams,
        body: AcceptBody,
        response: withPublicProblems({ 201: Type.Object({ workspace_id: Type.String() }) }, 400, 401, 404, 415, 429),
      },
    },
    async (request, reply) => {
      const decision = limiter.take(request.ip);
      if (!decision.allowed) throw new AppError('rate_limited', `more than ${decision.limit} attempts a minute from this address`, undefined, { 'retry-after': String(decision.resetSeconds) });
      const { session, workspaceId } = await acceptInvitation(ctx, guard, request.params.token, request.body.password, request.ip);
      setSessionCookies(request, reply, session);
      return reply.code(201).send({ workspace_id: workspaceId });
    },
  );
};
