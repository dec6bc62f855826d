// What a workspace can choose from: engines and models, and the metadata fields of its recordings.
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Context } from '../../context.ts';
import { listEngines, metadataFields } from './catalog.ts';
import { Nullable, StringEnum, withProblems, WorkspaceParams } from '../../http/schemas/common.ts';

const Engine = Type.Object(
  {
    kind: StringEnum(['transcription', 'analysis']),
    engine: Type.String(),
    default_model: Type.String(),
    models: Type.Array(Type.String(), { description: 'Models available here (registered model files for the local engines)' }),
    any_model: Type.Boolean({ description: 'The engine takes any model name its server knows (openai)' }),
    languages: Nullable(Type.Array(Type.String(), { description: 'The only languages it takes; null: any' })),
    spots: Type.Optional(Type.Boolean({ description: 'Transcription engines: it spots phrases in the audio (the scenario option spot); the others refuse spot phrases' })),
  },
  { $id: 'Engine' },
);
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);
const MetadataField = Type.Object(
  {
    field: Type.String(),
    recordings: Type.Integer({ description: 'Recordings of the sample that carry the field' }),
    values: Type.Array(Type.Object({ value: Scalar, recordings: Type.Integer() }), { description: 'Its most frequent scalar values' }),
  },
  { $id: 'MetadataField' },
);
export const catalogRoutes = (ctx: Context): FastifyPluginAsyncTypebox => async (app) => {
  const P = '/api/v1/workspaces/:workspace_id';

  app.get(
    `${P}/engines`,
    { config: { scope: null }, schema: { tags: ['scenarios'], summary: 'Engines of this server and their available models', params: WorkspaceParams, response: withProblems({ 200: Type.Object({ data: Type.Array(Engine) }) }) } },
    async () => ({ data: await listEngines(ctx) }),
  );

  app.get(
    `${P}/metadata-fields`,
    {
      config: { scope: 'recordings:read' },
      schema: {
        tags: ['recordings'],
        summary: 'Metadata fields of the workspace\'s recordings and their frequent values',
        description: 'Read from the newest 5,000 recordings, so it answers at once on any number of them.',
        params: WorkspaceParams,
        response: withProblems({ 200: Type.Object({ data: Type.Array(MetadataField) }) }),
      },
    },
    async (request) => ({ data: await metadataFields(ctx, request.params.workspace_id) }),
  );
};
