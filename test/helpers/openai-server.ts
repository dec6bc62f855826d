// A small OpenAI-compatible chat server over node-llama-cpp, for tests: POST /v1/chat/completions
// (no streaming; response_format json_schema through a grammar, json_object through a JSON
// grammar) and GET /v1/models. Plain node:http. Requests run one at a time per model (see
// llama-runtime.ts); a prompt that does not fit the context is a 400 with code
// context_length_exceeded, never a silent shift. Not hardened for untrusted clients beyond body
// size and shape checks: bind it to loopback.
import http from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { LlamaChatSession, type ChatHistoryItem, type GbnfJsonSchema, type LlamaGrammar } from 'node-llama-cpp';
import { countPromptTokens, loadModelCached, type LoadedModel } from '../../src/engines/analysis/llama-runtime.ts';

export interface OpenAiServerOptions {
  modelPath: string;
  port?: number;
  host?: string;
  /** Tokens of context per request; defaults to 4096, capped at the model's training context. */
  contextSize?: number;
  /**
   * Threads per request; defaults to 1, as Hark's own llama.cpp engine (HARK_LLAMA_THREADS): left
   * to llama.cpp's default (every core) on these shared 2-core machines, a 106-token reply took
   * 30 s instead of 1.8 s.
   */
  threads?: number;
}

export interface OpenAiServer {
  /** Base URL ending in /v1. */
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly type = 'invalid_request_error', readonly param: string | null = null, readonly code: string | null = null) {
    super(message);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: http.ServerResponse, error: HttpError): void {
  send(res, error.status, { error: { message: error.message, type: error.type, param: error.param, code: error.code } });
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'the request body is not valid JSON');
  }
}

function messageText(content: unknown, index: number): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => {
        if (isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string') return part['text'];
        throw new HttpError(400, `messages[${index}].content: only text parts are supported`, 'invalid_request_error', `messages[${index}].content`);
      })
      .join('');
  }
  throw new HttpError(400, `messages[${index}].content must be a string or an array of text parts`, 'invalid_request_error', `messages[${index}].content`);
}

/** OpenAI messages → node-llama-cpp chat history, plus the last user message to prompt with. */
function toHistory(messages: unknown): { history: ChatHistoryItem[]; prompt: string } {
  if (!Array.isArray(messages) || messages.length === 0) throw new HttpError(400, 'messages must be a non-empty array', 'invalid_request_error', 'messages');
  const history: ChatHistoryItem[] = messages.map((m: unknown, i): ChatHistoryItem => {
    if (!isRecord(m)) throw new HttpError(400, `messages[${i}] must be an object`, 'invalid_request_error', `messages[${i}]`);
    const text = messageText(m['content'], i);
    switch (m['role']) {
      case 'system':
      case 'developer':
        return { type: 'system', text };
      case 'user':
        return { type: 'user', text };
      case 'assistant':
        return { type: 'model', response: [text] };
      default:
        throw new HttpError(400, `messages[${i}].role ${JSON.stringify(m['role'])} is not supported`, 'invalid_request_error', `messages[${i}].role`);
    }
  });
  const last = history.pop();
  if (last?.type !== 'user') throw new HttpError(400, 'the last message must be a user message', 'invalid_request_error', 'messages');
  return { history, prompt: last.text };
}

function optionalNumber(body: Record<string, unknown>, key: string, min: number, max: number, integer: boolean): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new HttpError(400, `${key} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`, 'invalid_request_error', key);
  }
  return value;
}

const SCHEMA_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const SCHEMA_KEYWORDS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties', 'items', 'prefixItems', 'minItems', 'maxItems',
  'minLength', 'maxLength', 'format', 'enum', 'const', 'oneOf', 'anyOf', '$ref', '$defs',
  // annotations, ignored
  'description', 'title', '$schema', '$comment', 'default', 'examples',
]);
const IGNORED_KEYWORDS = new Set(['required', 'title', '$schema', '$comment', 'default', 'examples']);

/**
 * Checks a client's JSON schema against what node-llama-cpp's grammar supports and returns it in
 * that form (anyOf becomes oneOf; annotations dropped). node-llama-cpp itself quietly turns what it
 * does not know into "null" or "any", so anything outside the subset is a 400 here. Every object
 * property is required in the output, as with OpenAI's strict mode.
 */
function toGrammarSchema(schema: unknown, at: string): GbnfJsonSchema {
  if (!isRecord(schema)) throw new HttpError(400, `response_format.json_schema: ${at} must be an object`, 'invalid_request_error', 'response_format');
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const here = `${at}.${key}`;
    if (!SCHEMA_KEYWORDS.has(key)) throw new HttpError(400, `response_format.json_schema: the keyword ${JSON.stringify(key)} at ${at} is not supported`, 'invalid_request_error', 'response_format');
    if (IGNORED_KEYWORDS.has(key)) continue;
    if (key === 'type') {
      const types = Array.isArray(value) ? value : [value];
      if (types.length === 0 || !types.every((t) => typeof t === 'string' && SCHEMA_TYPES.has(t))) {
        throw new HttpError(400, `response_format.json_schema: ${here} must name JSON types`, 'invalid_request_error', 'response_format');
      }
      out[key] = value;
    } else if (key === 'properties' || key === '$defs') {
      if (!isRecord(value)) throw new HttpError(400, `response_format.json_schema: ${here} must be an object`, 'invalid_request_error', 'response_format');
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toGrammarSchema(v, `${here}.${k}`)]));
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value !== 'boolean')) {
      out[key] = toGrammarSchema(value, here);
    } else if (key === 'prefixItems' || key === 'oneOf' || key === 'anyOf') {
      if (!Array.isArray(value) || value.length === 0) throw new HttpError(400, `response_format.json_schema: ${here} must be a non-empty array`, 'invalid_request_error', 'response_format');
      out[key === 'anyOf' ? 'oneOf' : key] = value.map((v, i) => toGrammarSchema(v, `${here}[${i}]`));
    } else if (['minProperties', 'maxProperties', 'minItems', 'maxItems', 'minLength', 'maxLength'].includes(key)) {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new HttpError(400, `response_format.json_schema: ${here} must be a non-negative integer`, 'invalid_request_error', 'response_format');
      out[key] = value;
    } else if (key === 'format') {
      if (!['date-time', 'date', 'time'].includes(String(value))) throw new HttpError(400, `response_format.json_schema: format ${JSON.stringify(value)} at ${at} is not supported`, 'invalid_request_error', 'response_format');
      out[key] = value;
    } else if (key === 'enum') {
      if (!Array.isArray(value) || !value.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) {
        throw new HttpError(400, `response_format.json_schema: ${here} must list strings, numbers, booleans or null`, 'invalid_request_error', 'response_format');
      }
      out[key] = value;
    } else out[key] = value;
  }
  if (!('type' in out) && !('oneOf' in out) && !('enum' in out) && !('const' in out) && !('$ref' in out)) {
    throw new HttpError(400, `response_format.json_schema: ${at} has no type`, 'invalid_request_error', 'response_format');
  }
  return out as GbnfJsonSchema;
}

async function grammarFor(loaded: LoadedModel, format: unknown, cache: Map<string, Promise<LlamaGrammar>>): Promise<LlamaGrammar | undefined> {
  if (format === undefined || format === null) return undefined;
  if (!isRecord(format)) throw new HttpError(400, 'response_format must be an object', 'invalid_request_error', 'response_format');
  const type = format['type'];
  if (type === 'text') return undefined;
  if (type === 'json_object') return loaded.llama.getGrammarFor('json');
  if (type !== 'json_schema') throw new HttpError(400, `response_format.type ${JSON.stringify(type)} is not supported`, 'invalid_request_error', 'response_format');
  const spec = format['json_schema'];
  if (!isRecord(spec) || !isRecord(spec['schema'])) {
    throw new HttpError(400, 'response_format.json_schema.schema must be a JSON schema object', 'invalid_request_error', 'response_format');
  }
  const schema = toGrammarSchema(spec['schema'], 'schema');
  const key = JSON.stringify(schema);
  let grammar = cache.get(key);
  if (!grammar) {
    grammar = loaded.llama.createGrammarForJsonSchema<GbnfJsonSchema>(schema);
    grammar.catch(() => cache.delete(key));
    if (cache.size > 64) cache.clear();
    cache.set(key, grammar);
  }
  try {
    return await grammar;
  } catch (error) {
    throw new HttpError(400, `response_format.json_schema: unsupported schema (${(error as Error).message})`, 'invalid_request_error', 'response_format');
  }
}

export async function startOpenAiServer(opts: OpenAiServerOptions): Promise<OpenAiServer> {
  const loaded = await loadModelCached(opts.modelPath);
  const modelId = path.basename(opts.modelPath).replace(/\.gguf$/i, '');
  const contextSize = Math.min(opts.contextSize ?? 4096, loaded.model.trainContextSize);
  const grammars = new Map<string, Promise<LlamaGrammar>>();

  async function completions(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readJson(req);
    if (!isRecord(body)) throw new HttpError(400, 'the request body must be a JSON object');
    if (body['stream'] === true) throw new HttpError(400, 'stream is not supported by this server', 'invalid_request_error', 'stream');
    optionalNumber(body, 'n', 1, 1, true); // only one choice
    const temperature = optionalNumber(body, 'temperature', 0, 2, false) ?? 1;
    const topP = optionalNumber(body, 'top_p', 0, 1, false);
    const seed = optionalNumber(body, 'seed', 0, 2 ** 31 - 1, true);
    const maxTokens = optionalNumber(body, 'max_completion_tokens', 1, 1e6, true) ?? optionalNumber(body, 'max_tokens', 1, 1e6, true);
    const { history, prompt } = toHistory(body['messages']);
    const grammar = await grammarFor(loaded, body['response_format'], grammars);

    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort(new Error('the client went away'));
    });

    const result = await loaded.lock.run(async () => {
      const promptTokens = countPromptTokens(loaded, [...history, { type: 'user', text: prompt }]);
      const room = contextSize - promptTokens - 1;
      if (room < 1 || (maxTokens !== undefined && maxTokens > room)) {
        throw new HttpError(400, `This model's maximum context length is ${contextSize} tokens. However, you requested ${promptTokens + (maxTokens ?? 1)} tokens (${promptTokens} in the messages, ${maxTokens ?? 1} in the completion).`, 'invalid_request_error', 'messages', 'context_length_exceeded');
      }
      const context = await loaded.model.createContext({ contextSize, sequences: 1, threads: opts.threads ?? 1 });
      try {
        const sequence = context.getSequence();
        const session = new LlamaChatSession({ contextSequence: sequence, chatWrapper: loaded.chatWrapper, autoDisposeSequence: false });
        session.setChatHistory(history);
        const reply = await session.promptWithMeta(prompt, {
          temperature,
          maxTokens: maxTokens ?? room,
          budgets: { thoughtTokens: 0 },
          signal: abort.signal,
          stopOnAbortSignal: true,
          ...(grammar ? { grammar } : {}),
          ...(topP !== undefined ? { topP } : {}),
          ...(seed !== undefined ? { seed } : {}),
        });
        session.dispose({ disposeSequence: false });
        return { reply, usage: sequence.tokenMeter.getState() };
      } finally {
        await context.dispose();
      }
    }, abort.signal);
    if (abort.signal.aborted) return;
    const { reply, usage } = result;
    send(res, 200, {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: typeof body['model'] === 'string' ? body['model'] : modelId,
      choices: [{ index: 0, message: { role: 'assistant', content: reply.responseText }, finish_reason: reply.stopReason === 'maxTokens' ? 'length' : 'stop' }],
      usage: { prompt_tokens: usage.usedInputTokens, completion_tokens: usage.usedOutputTokens, total_tokens: usage.usedInputTokens + usage.usedOutputTokens },
    });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = `${req.method ?? 'GET'} ${url.pathname.replace(/\/+$/, '')}`;
    const handle = async (): Promise<void> => {
      if (route === 'GET /v1/models') {
        send(res, 200, { object: 'list', data: [{ id: modelId, object: 'model', created: 0, owned_by: 'local' }] });
      } else if (route === 'POST /v1/chat/completions') {
        await completions(req, res);
      } else if (url.pathname === '/v1/models' || url.pathname === '/v1/chat/completions') {
        throw new HttpError(405, `${req.method ?? ''} is not allowed on ${url.pathname}`);
      } else {
        throw new HttpError(404, `no route ${req.method ?? ''} ${url.pathname}`, 'not_found_error');
      }
    };
    handle().catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      if (error instanceof HttpError) sendError(res, error);
      else {
        process.stderr.write(`openai-server: ${(error as Error).stack ?? String(error)}\n`);
        sendError(res, new HttpError(500, `the model failed: ${(error as Error).message}`, 'server_error'));
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/v1`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
