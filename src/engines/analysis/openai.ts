// The OpenAI-compatible analysis engine, through the official SDK on the outbound seam's fetch:
// POST {baseUrl}/chat/completions with the answer's JSON
// schema as response_format (strict). Servers that refuse it are stepped down once per engine:
// a strict schema without string bounds when the server names maxLength (OpenAI's strict subset
// lacks it), then { type: 'json_object' } with the shape described in the prompt, and a server
// that refuses max_tokens gets max_completion_tokens. Long transcripts are split by characters and
// the parts' answers merged; a server that says the prompt is too long gets smaller parts.
// Nothing is truncated. The model's JSON is checked and coerced to the questions' types.
//
// Errors: unreachable server, timeout, 429 and 5xx are retryable; other 4xx are not; a reply that is
// not the expected JSON is engine_bad_response (retryable). An aborted signal rejects with its reason.
import OpenAI, { APIConnectionTimeoutError, APIError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { AddressPolicy } from '../../platform/net/address-policy.ts';
import { classifyOutboundError, guardedFetch } from '../../platform/net/outbound.ts';
import {
  answerSchema,
  buildMessages,
  coerceModelAnswers,
  maxAnswerChars,
  mergeAnswers,
  MIN_CHUNK_CHARS,
  parseModelJson,
  renderTranscript,
  splitInput,
  toAnalysisAnswers,
  validateInput,
  type ModelAnswers,
} from './prompt.ts';
import { EngineError, type AnalysisEngine, type AnalysisInput, type AnalysisOutput } from './types.ts';

export interface OpenAiAnalysisEngineOptions {
  /** e.g. http://127.0.0.1:8080/v1 */
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** Which addresses the base URL may reach (a scenario's URL gets the import guard). */
  policy: AddressPolicy;
  /** Transcript characters per request; halved while the server says the prompt is too long. */
  maxChunkChars?: number;
  /** Per request. */
  timeoutMs?: number;
}

const DEFAULT_CHUNK_CHARS = 24_000;
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

type FormatMode = 'json_schema' | 'json_schema_unbounded' | 'json_object';

class ContextTooLong extends Error {}

interface ChatReply {
  content: string;
  tokens: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema without maxLength, for servers whose strict mode does not take it. */
function withoutBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutBounds);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'maxLength') out[k] = withoutBounds(v);
  return out;
}

/** The server's own words: OpenAI's `error.message`, or what other servers put in its place. */
function apiErrorMessage(error: InstanceType<typeof APIError>): string {
  const body: unknown = error.error;
  if (isRecord(body)) {
    if (typeof body['message'] === 'string') return body['message'];
    const inner = body['error'];
    if (isRecord(inner) && typeof inner['message'] === 'string') return inner['message'];
    if (typeof inner === 'string') return inner;
    if (typeof body['detail'] === 'string') return body['detail'];
  }
  if (typeof body === 'string') return body.slice(0, 500);
  return error.message.replace(/^\d{3}\s*/, '');
}

export function openaiAnalysisEngine(opts: OpenAiAnalysisEngineOptions): AnalysisEngine {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const url = `${baseUrl}/chat/completions`;
  const host = new URL(url).host;
  let mode: FormatMode = 'json_schema';
  let tokenParam: 'max_tokens' | 'max_completion_tokens' = 'max_tokens';

  const client = new OpenAI({
    baseURL: baseUrl,
    apiKey: opts.apiKey ?? 'none',
    maxRetries: 0,
    timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    fetch: guardedFetch(opts.policy),
  });

  /** One request through the SDK; its errors become the engine's status and message. */
  async function post(body: Record<string, unknown>, signal: AbortSignal | undefined): Promise<{ status: number; reply: unknown; message: string }> {
    try {
      const reply: unknown = await client.chat.completions.create(body as unknown as ChatCompletionCreateParamsNonStreaming, signal ? { signal } : {});
      return { status: 200, reply, message: '' };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof APIConnectionTimeoutError) {
        throw new EngineError('engine_timeout', `the engine at ${host} did not answer within ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`, true);
      }
      if (error instanceof APIError && typeof error.status === 'number') return { status: error.status, reply: null, message: apiErrorMessage(error) };
      if (error instanceof SyntaxError) throw new EngineError('engine_bad_response', 'the engine answered with something other than JSON', true);
      const failure = classifyOutboundError((error as { cause?: unknown }).cause ?? error, AbortSignal.abort());
      if (failure.code === 'address_not_allowed') throw new EngineError('address_not_allowed', `the engine address ${host} is not public`, false);
      throw new EngineError('engine_unreachable', `the engine at ${host} could not be reached (${failure.code})`, true);
    }
  }

  /** One chat completion, stepping the response format and token parameter down as the server asks. */
  async function complete(input: AnalysisInput, chunk: { index: number; total: number } | undefined, signal: AbortSignal | undefined): Promise<ChatReply> {
    const { system, user } = buildMessages(input, chunk ? { chunk } : {});
    const schema = answerSchema(input);
    for (;;) {
      const responseFormat =
        mode === 'json_object'
          ? { type: 'json_object' }
          : { type: 'json_schema', json_schema: { name: 'analysis', strict: true, schema: mode === 'json_schema' ? schema : withoutBounds(schema) } };
      const body: Record<string, unknown> = {
        model: opts.model,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
        temperature: 0,
        // A token holds at least one character, except some non-Latin characters: twice the bound.
        [tokenParam]: 2 * maxAnswerChars(input) + 64,
        response_format: responseFormat,
      };
      const { status, reply, message } = await post(body, signal);
      if (status >= 200 && status < 300) return parseReply(reply);
      if (status === 400 || status === 422) {
        if (/context.length|context.size|maximum context|context window|too long|too many tokens|exceeds/i.test(message)) throw new ContextTooLong(message);
        if (/response_format|json_schema|json schema|structured output/i.test(message) && mode !== 'json_object') {
          mode = mode === 'json_schema' && /maxLength/i.test(message) ? 'json_schema_unbounded' : 'json_object';
          continue;
        }
        if (tokenParam === 'max_tokens' && /max_tokens/.test(message) && /max_completion_tokens|unsupported|not supported/i.test(message)) {
          tokenParam = 'max_completion_tokens';
          continue;
        }
      }
      const retryable = status === 429 || status >= 500;
      throw new EngineError(`engine_http_${status}`, `the engine answered HTTP ${status}${message ? `: ${message.slice(0, 300)}` : ''}`, retryable);
    }
  }

  function parseReply(body: unknown): ChatReply {
    if (!isRecord(body)) throw new EngineError('engine_bad_response', 'the engine answered with something other than JSON', true);
    const choice = isRecord(body) && Array.isArray(body['choices']) ? (body['choices'][0] as unknown) : undefined;
    const message = isRecord(choice) ? choice['message'] : undefined;
    if (!isRecord(choice) || !isRecord(message)) throw new EngineError('engine_bad_response', 'the engine\'s answer has no choices[0].message', true);
    if (typeof message['refusal'] === 'string' && message['refusal'] !== '') {
      throw new EngineError('engine_refused', `the model refused: ${message['refusal'].slice(0, 300)}`, false);
    }
    if (typeof message['content'] !== 'string') throw new EngineError('engine_bad_response', 'the engine\'s answer has no text content', true);
    if (choice['finish_reason'] === 'length') throw new EngineError('engine_bad_response', 'the model reached its token limit before closing the JSON', true);
    const usage = isRecord(body) ? body['usage'] : undefined;
    let tokens = 0;
    if (isRecord(usage)) {
      if (typeof usage['total_tokens'] === 'number') tokens = usage['total_tokens'];
      else tokens = (typeof usage['prompt_tokens'] === 'number' ? usage['prompt_tokens'] : 0) + (typeof usage['completion_tokens'] === 'number' ? usage['completion_tokens'] : 0);
    }
    return { content: message['content'], tokens };
  }

  return {
    name: 'openai',
    async analyze(input: AnalysisInput, signal?: AbortSignal): Promise<AnalysisOutput> {
      validateInput(input);
      signal?.throwIfAborted();
      // Parts still to ask, in transcript order; a part the server finds too long is replaced by
      // its halves (answers already given are kept).
      const queue = splitInput(input, opts.maxChunkChars ?? DEFAULT_CHUNK_CHARS);
      const partials: ModelAnswers[] = [];
      let tokens = 0;
      while (queue.length > 0) {
        signal?.throwIfAborted();
        const part = queue[0]!;
        const total = partials.length + queue.length;
        try {
          const reply = await complete(part, total > 1 ? { index: partials.length, total } : undefined, signal);
          tokens += reply.tokens;
          partials.push(coerceModelAnswers(parseModelJson(reply.content), part));
          queue.shift();
        } catch (error) {
          if (!(error instanceof ContextTooLong)) throw error;
          const half = Math.floor(renderTranscript(part.transcript).length / 2);
          const pieces = half >= MIN_CHUNK_CHARS ? splitInput(part, half) : [part];
          if (pieces.length < 2) {
            throw new EngineError('context_too_small', `the engine's context cannot hold the questions with this transcript: ${error.message.slice(0, 200)}`, false);
          }
          queue.splice(0, 1, ...pieces);
        }
      }
      const merged = mergeAnswers(partials, input);
      return { engine: 'openai', model: opts.model, summary: merged.summary, answers: toAnalysisAnswers(merged, input), tokens_used: tokens };
    },
  };
}
