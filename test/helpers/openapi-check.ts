// Every response a test receives through the harness is checked against the committed OpenAPI
// document: its status is documented for the operation, its content type is one the status
// lists, and a JSON body matches the schema given for it. A mismatch fails the test that met it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface MediaType {
  schema?: object;
}
interface Operation {
  operationId?: string;
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
}

const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../openapi.json');
const document = JSON.parse(fs.readFileSync(file, 'utf8')) as Document;

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
ajv.addFormat('binary', true);
ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');

const routes = Object.entries(document.paths).map(([template, item]) => ({
  template,
  item,
  pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, '[^/]+')}$`),
}));

const validators = new Map<string, ValidateFunction>();
function validatorFor(key: string, schema: object): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    // Component references are resolved against the document's components.
    const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')) as object;
    validate = ajv.compile(rebased);
    validators.set(key, validate);
  }
  return validate;
}

const mediaMatches = (documented: string, sent: string) =>
  documented === sent || documented === '*/*' || (documented.endsWith('/*') && sent.startsWith(documented.slice(0, -1)));

/** Routes outside the documented API: the web interface, docs, the document itself, probes and metrics. */
const undocumented = (pathname: string) => !pathname.startsWith('/api/v1/') && !pathname.startsWith('/v1/') ? true : pathname.startsWith('/api/v1/docs') || pathname === '/api/v1/openapi.json';

/** Why a response does not match the document, or null when it does. */
export function openapiMismatch(method: string, url: string, status: number, contentType: string | undefined, body: string): string | null {
  const pathname = new URL(url, 'http://hark.test').pathname;
  if (undocumented(pathname)) return null;
  // The most specific template with this method: `/from-template` before `/{scenario_id}`.
  const candidates = routes.filter((r) => r.pattern.test(pathname)).sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  const route = candidates.find((r) => r.item[method.toLowerCase()]) ?? candidates[0];
  const operation = route?.item[method.toLowerCase()];
  // No such operation: the 404 every unknown path and method gets, documented by the error catalogue.
  if (!route || !operation) return status === 404 ? null : `${method} ${pathname}: no documented operation answered ${status}`;
  const where = `${method} ${route.template} → ${status}`;
  const response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response) return `${where}: status not documented (documented: ${Object.keys(operation.responses).join(', ')})`;
  if (body.length === 0 || !response.content) return null;
  const sent = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const media = Object.entries(response.content).find(([documented]) => mediaMatches(documented, sent));
  if (!media) return `${where}: content type ${sent} not documented (documented: ${Object.keys(response.content).join(', ')})`;
  const [mediaType, { schema }] = media;
  if (!schema || !/json/.test(sent)) return null;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `${where}: ${sent} body is not JSON`;
  }
  const validate = validatorFor(`${method} ${route.template} ${status} ${mediaType}`, schema);
  if (validate(value)) return null;
  const error = validate.errors?.[0];
  return `${where}: body does not match its schema at ${error?.instancePath || '/'}: ${error?.message} (${JSON.stringify(error?.params)})`;
}
