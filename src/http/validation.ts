// Request validation: query strings, paths and headers arrive as text, so they are coerced to
// the schema's types; JSON bodies are not — a string where a boolean belongs is an error.
import { Ajv, type Options } from 'ajv';
import formats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const common: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };

function build(coerceTypes: Options['coerceTypes']) {
  const ajv = new Ajv({ ...common, coerceTypes });
  // ajv-formats is CommonJS: its function is the default export's `default`.
  (formats as unknown as { default: (ajv: Ajv) => void }).default(ajv);
  return ajv;
}

const coercing = build('array');
const exact = build(false);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema);
