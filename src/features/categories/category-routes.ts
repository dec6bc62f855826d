// P/categories: call categories (rules over phrases, talk statistics and sentiment), their
// evaluation over past recordings, and a recording's categories.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { DateTime, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';
import { categoriesOf, createCategory, deleteCategory, evaluateCategory, getCategory, listCategories, updateCategory } from './categories.ts';
import { CategoryRuleSchema } from './category-rule.ts';

const CategoryCard = Type.Object(
  {
    id: Type.String({ description: 'cat-<uuid>' }),
    name: Type.String(),
    rule: CategoryRuleSchema,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Category' },
);
/** A category as the list gives it: its card and how many calls meet it. */
const ListedCategory = Type.Intersect([CategoryCard, Type.Object({ recordings: Type.Integer({ description: 'Recordings that meet it now (their latest transcript), as the list\'s category filter finds them' }) })]);
const Name = Type.String({ minLength: 1, maxLength: 200 });
const CategoryParams = Type.Object({ workspace_id: Type.String(), category_id: Type.String() });

export const categoryRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const base = '/api/v1/workspaces/:workspace_id/categories';
  const read = { scope: 'recordings:read' as const };
  const write = { scope: 'scenarios:write' as const };
  const tags = ['categories'];

  app.get(base, { config: read, schema: { tags, summary: 'List call categories', params: WorkspaceParams, response: withProblems({ 200: Type.Object({ data: Type.Array(ListedCategory) }) }) } }, async (request) => ({
    data: await listCategories(ctx, request.params.workspace_id),
  }));
  app.post(
    base,
    {
      config: write,
      schema: {
        tags,
        summary: 'Create a call category: a rule evaluated on every new transcript (up to 100 a workspace: 409 category_limit_reached; one name each, whatever its case: 409 category_name_taken)',
        description: 'Conditions: `phrase` (any of `phrases` said, or with `said: false` none, optionally by a `speaker` within the first `within_seconds`), `talk` (a talk statistic above or below a value, of the call or a speaker), `sentiment` (a speaker\'s or the call\'s mean, or a third of the call, above or below a value). `match`: all or any.',
        params: WorkspaceParams,
        body: Type.Object({ name: Name, rule: CategoryRuleSchema }, { additionalProperties: false }),
        response: withProblems({ 201: CategoryCard }, 409),
      },
    },
    async (request, reply) => reply.code(201).send(await createCategory(ctx, request.params.workspace_id, request.body)),
  );
  app.get(`${base}/:category_id`, { config: read, schema: { tags, summary: 'A call category', params: CategoryParams, response: withProblems({ 200: CategoryCard }, 404) } }, async (request) =>
    getCategory(ctx, request.params.workspace_id, request.params.category_id),
  );
  app.patch(
    `${base}/:category_id`,
    { config: write, schema: { tags, summary: 'Change a call category (new transcripts are evaluated with the new rule; evaluate to apply it to past ones)', params: CategoryParams, body: Type.Partial(Type.Object({ name: Name, rule: CategoryRuleSchema }), { additionalProperties: false }), response: withProblems({ 200: CategoryCard }, 404, 409) } },
    async (request) => updateCategory(ctx, request.params.workspace_id, request.params.category_id, request.body),
  );
  app.delete(`${base}/:category_id`, { config: write, schema: { tags, summary: 'Delete a call category (recordings lose it)', params: CategoryParams, response: withProblems({ 204: Type.Null() }, 404) } }, async (request, reply) => {
    await deleteCategory(ctx, request.params.workspace_id, request.params.category_id);
    return reply.code(204).send(null);
  });
  app.post(
    `${base}/:category_id/evaluate`,
    {
      config: write,
      schema: {
        tags,
        summary: 'Evaluate a category over every recording\'s latest transcript (up to 10,000), now',
        params: CategoryParams,
        response: withProblems({ 200: Type.Object({ recordings: Type.Integer({ description: 'Recordings read' }), matched: Type.Integer({ description: 'Recordings that meet the category' }) }) }, 404),
      },
    },
    async (request) => evaluateCategory(ctx, request.params.workspace_id, request.params.category_id),
  );
  app.get(
    '/api/v1/workspaces/:workspace_id/recordings/:recording_id/categories',
    {
      config: read,
      schema: {
        tags,
        summary: 'The categories a recording\'s latest transcript meets',
        params: Type.Object({ workspace_id: Type.String(), recording_id: Type.String() }),
        response: withProblems({ 200: Type.Object({ data: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), transcript_id: Type.String() })) }) }, 404),
      },
    },
    async (request) => ({ data: await categoriesOf(ctx, request.params.workspace_id, request.params.recording_id) }),
  );
};
