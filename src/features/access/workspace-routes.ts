// Workspaces of the signed-in account (list, create, read, rename, default retention) and their
// members (list, add by e-mail with a role, change a role, remove). Managing them is the owner's
// (the `keys:manage` scope).
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MemberCard, presentWorkspace, WorkspaceCard } from './workspace-card.ts';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { roles } from '../../scopes.ts';
import { addMember, changeMember, createOwnedWorkspace, listMembers, recentSignInFailures, workspacesOf } from './memberships.ts';
import { getWorkspace, updateWorkspace } from './workspaces.ts';
import { assertCanGrantRole } from './auth.ts';
import { assertScope } from '../../http/request-context.ts';
import { DateTime, Nullable, StringEnum, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';

const tags = ['workspaces'];
const CreateBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
const UpdateBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), default_retention_days: Type.Optional(Nullable(Type.Integer())) },
  { additionalProperties: false },
);
const SignInFailure = Type.Object({
  account_id: Type.String(),
  email: Type.String(),
  address: Type.String({ description: 'The client address the attempts came from' }),
  failures: Type.Integer(),
  first_failed_at: DateTime,
  last_failed_at: DateTime,
});
const MemberParams = Type.Object({ workspace_id: Type.String(), account_id: Type.String() });
const AddMemberBody = Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), role: StringEnum(roles) }, { additionalProperties: false });
const RoleBody = Type.Object({ role: StringEnum(roles) }, { additionalProperties: false });

export const workspaceRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const P = '/api/v1/workspaces/:workspace_id';

  app.get(
    '/api/v1/workspaces',
    { config: { account: true }, schema: { tags, summary: 'The workspaces of the signed-in account (an API key sees its own)', response: withProblems({ 200: Type.Object({ data: Type.Array(WorkspaceCard) }) }) } },
    async (request) => {
      const { session, key } = request.principal!;
      if (key) return { data: [presentWorkspace(await getWorkspace(ctx, key.workspace_id), null, ctx.config.retention)] };
      return { data: (await workspacesOf(ctx, session!.account_id)).map((w) => presentWorkspace(w, w.role, ctx.config.retention)) };
    },
  );

  app.post(
    '/api/v1/workspaces',
    { config: { account: true }, schema: { tags, summary: 'Create a workspace on a trial, owned by the signed-in account', body: CreateBody, response: withProblems({ 201: WorkspaceCard }) } },
    async (request, reply) => {
      const session = request.principal?.session;
      if (!session) throw new AppError('account_required', 'an API key belongs to one workspace: sign in to create another');
      return reply.code(201).send(presentWorkspace(await createOwnedWorkspace(ctx, session.account_id, request.body.name), 'owner', ctx.config.retention));
    },
  );

  app.get(P, { config: { scope: null }, schema: { tags, summary: 'A workspace', params: WorkspaceParams, response: withProblems({ 200: WorkspaceCard }, 404) } }, async (request) =>
    presentWorkspace(await getWorkspace(ctx, request.params.workspace_id), request.principal?.role ?? null, ctx.config.retention),
  );

  app.patch(
    P,
    { config: { scope: 'keys:manage' }, schema: { tags, summary: 'Rename a workspace or set its default retention', params: WorkspaceParams, body: UpdateBody, response: withProblems({ 200: WorkspaceCard }, 404) } },
    async (request) => presentWorkspace(await updateWorkspace(ctx, request.params.workspace_id, request.body), request.principal?.role ?? null, ctx.config.retention),
  );

  // Every signed-in member sees who else is in the workspace; an API key lists the people (their
  // e-mail addresses) only with the scope that manages them.
  app.get(
    `${P}/members`,
    {
      config: { scope: null },
      schema: {
        tags,
        summary: 'Members of a workspace (any signed-in member; an API key needs keys:manage)',
        params: WorkspaceParams,
        response: withProblems({ 200: Type.Object({ data: Type.Array(MemberCard) }) }),
      },
    },
    async (request) => {
      if (request.principal?.key) assertScope(request, 'keys:manage', 'to list the members');
      return { data: await listMembers(ctx, request.params.workspace_id) };
    },
  );

  app.get(
    `${P}/sign-in-failures`,
    {
      config: { scope: 'keys:manage' },
      schema: {
        tags,
        summary: 'Failed sign-ins against the members in the last 24 hours, by account and address',
        description: 'Each address gets a few free failures per account, then waits twice as long after each further one (up to 15 minutes); other addresses are not slowed.',
        params: WorkspaceParams,
        response: withProblems({ 200: Type.Object({ data: Type.Array(SignInFailure) }) }),
      },
    },
    async (request) => ({ data: await recentSignInFailures(ctx, request.params.workspace_id) }),
  );

  app.post(
    `${P}/members`,
    { config: { scope: 'keys:manage' }, schema: { tags, summary: 'Add an existing account by e-mail with a role', params: WorkspaceParams, body: AddMemberBody, response: withProblems({ 201: MemberCard }, 404, 409) } },
    async (request, reply) => {
      assertCanGrantRole(request, request.body.role);
      return reply.code(201).send(await addMember(ctx, request.params.workspace_id, request.body));
    },
  );

  app.patch(
    `${P}/members/:account_id`,
    { config: { scope: 'keys:manage' }, schema: { tags, summary: 'Change a member\'s role', params: MemberParams, body: RoleBody, response: withProblems({ 200: MemberCard }, 404, 409) } },
    async (request) => {
      assertCanGrantRole(request, request.body.role);
      return (await changeMember(ctx, request.params.workspace_id, request.params.account_id, request.body.role, (current) => assertCanGrantRole(request, current)))!;
    },
  );

  app.delete(
    `${P}/members/:account_id`,
    { config: { scope: 'keys:manage' }, schema: { tags, summary: 'Remove a member: their access ends at once', params: MemberParams, response: withProblems({ 204: Type.Null() }, 404, 409) } },
    async (request, reply) => {
      await changeMember(ctx, request.params.workspace_id, request.params.account_id, null, (current) => assertCanGrantRole(request, current));
      return reply.code(204).send(null);
    },
  );
};
