// Request validation: query strings, paths and headers arrive as text, so they are coerced to
// the schema's types; JSON bodies are not — a string where a boolean belongs is an error.
import { Ajv, type Options } from 'ajv';
import formats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isInstant } from '../instant.ts';

const common: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };

function build(coerceTypes: Options['coerceTypes']) {
  const ajv = new Ajv({ ...common, coerceTypes });
  // ajv-formats is CommonJS: its function is the default export's `default`.
  (formats as unknown as { default: (ajv: Ajv) => void }).default(ajv);
  // A date-time must also exist and fall in years 1–9999 in UTC (see instant.ts): "0000-01-01T00:00:00Z"
  // passes the RFC 3339 pattern and was a 500 from the database.
  const rfc3339 = ajv.formats['date-time'] as { validate: (text: string) => boolean };
  ajv.addFormat('date-time', { type: 'string', validate: (text: string) => rfc3339.validate(text) && isInstant(text) });
  return ajv;
}

const coercing = build('array');
const exact = build(false);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? exact : coercing).compile(schema);
