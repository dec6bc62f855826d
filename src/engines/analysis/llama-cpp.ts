// The llama.cpp analysis engine: a GGUF model run in-process through node-llama-cpp on the CPU,
// its reply forced into the answer's JSON schema by a grammar, at temperature 0.
//
// A transcript longer than the context is split on segment boundaries and the parts' answers are
// merged; when the questions' possible answers alone would take more than half the context, they
// are asked in groups. Nothing is truncated. The model gives no calibrated confidence, so every
// answer carries a fixed one (MODEL_ANSWER_CONFIDENCE, prompt.ts; 0 when the model gave no usable answer), and no evidence.
import { LlamaChatSession, type ChatHistoryItem, type LlamaContextSequence } from 'node-llama-cpp';
import { countPromptTokens, loadModelCached, type LoadedModel } from './llama-runtime.ts';
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
  splitQuestions,
  toAnalysisAnswers,
  validateInput,
  type ModelAnswers,
} from './prompt.ts';
import { EngineError, type AnalysisEngine, type AnalysisInput, type AnalysisOutput } from './types.ts';

export interface LlamaCppEngineOptions {
  modelPath: string;
  modelName: string;
  threads: number;
  /** Tokens of context per call; defaults to 8192, capped at the model's training context. */
  contextSize?: number;
}

const DEFAULT_CONTEXT_SIZE = 8192;
/** Tokens kept free besides the prompt and the longest possible reply. */
const SAFETY_TOKENS = 32;

interface Part {
  input: AnalysisInput;
  index: number;
  total: number;
}

function messages(input: AnalysisInput, index: number, total: number): { system: string; user: string } {
  return buildMessages(input, total > 1 ? { chunk: { index, total } } : {});
}

function history(input: AnalysisInput, index: number, total: number): ChatHistoryItem[] {
  const { system, user } = messages(input, index, total);
  return [{ type: 'system', text: system }, { type: 'user', text: user }];
}

/** Splits a question group's transcript until every part's prompt fits promptBudget tokens. */
function planParts(loaded: LoadedModel, group: AnalysisInput, promptBudget: number): Part[] {
  const whole = countPromptTokens(loaded, history(group, 0, 1));
  if (whole <= promptBudget) return [{ input: group, index: 0, total: 1 }];
  const overhead = countPromptTokens(loaded, history({ ...group, transcript: { text: '', segments: [] } }, 0, 2));
  const available = promptBudget - overhead;
  const rendered = renderTranscript(group.transcript);
  const charsPerToken = rendered.length / Math.max(1, loaded.model.tokenize(rendered).length);
  let maxChars = Math.floor(available * charsPerToken * 0.9);
  while (maxChars >= MIN_CHUNK_CHARS) {
    const inputs = splitInput(group, maxChars);
    const parts = inputs.map((input, index) => ({ input, index, total: inputs.length }));
    if (parts.every((p) => countPromptTokens(loaded, history(p.input, p.index, p.total)) <= promptBudget)) return parts;
    maxChars = Math.floor(maxChars * 0.8);
  }
  throw new EngineError('context_too_small', `a context of ${promptBudget} prompt tokens cannot hold the instructions and questions with any transcript`, false);
}

async function runPart(loaded: LoadedModel, sequence: LlamaContextSequence, part: Part, signal: AbortSignal | undefined): Promise<{ answers: ModelAnswers; tokens: number }> {
  const { system, user } = messages(part.input, part.index, part.total);
  // The plan keeps room for the longest possible reply counted one token per character; the
  // reply may use all the room left (characters outside the vocabulary take several tokens).
  const maxTokens = sequence.contextSize - countPromptTokens(loaded, history(part.input, part.index, part.total)) - 1;
  await sequence.clearHistory();
  const before = sequence.tokenMeter.getState();
  const grammar = await loaded.llama.createGrammarForJsonSchema(answerSchema(part.input));
  const session = new LlamaChatSession({ contextSequence: sequence, chatWrapper: loaded.chatWrapper, systemPrompt: system, autoDisposeSequence: false });
  try {
    const reply = await session.promptWithMeta(user, {
      grammar,
      temperature: 0,
      maxTokens,
      budgets: { thoughtTokens: 0 },
      ...(signal ? { signal } : {}),
    });
    const used = sequence.tokenMeter.diff(before);
    const tokens = used.usedInputTokens + used.usedOutputTokens;
    if (reply.stopReason === 'abort') throw signal?.reason ?? new DOMException('The analysis was aborted', 'AbortError');
    if (reply.stopReason === 'maxTokens') throw new EngineError('engine_bad_response', 'the model reached its token limit before closing the JSON', true);
    return { answers: coerceModelAnswers(parseModelJson(reply.responseText), part.input), tokens };
  } finally {
    session.dispose({ disposeSequence: false });
  }
}

export function llamaCppEngine(opts: LlamaCppEngineOptions): AnalysisEngine {
  return {
    name: 'llama.cpp',
    async analyze(input: AnalysisInput, signal?: AbortSignal): Promise<AnalysisOutput> {
      validateInput(input);
      signal?.throwIfAborted();
      const loaded = await loadModelCached(opts.modelPath);
      const contextSize = Math.min(opts.contextSize ?? DEFAULT_CONTEXT_SIZE, loaded.model.trainContextSize);
      // A token is at least one character, so a reply's characters bound its tokens; the possible
      // reply may take at most half the context, the rest is for the prompt.
      const groups = splitQuestions(input, Math.floor(contextSize / 2));
      const run = loaded.lock.run(async () => {
        const context = await loaded.model.createContext({ contextSize, threads: opts.threads, sequences: 1 });
        try {
          const sequence = context.getSequence();
          const partials: ModelAnswers[] = [];
          let tokens = 0;
          for (const group of groups) {
            const promptBudget = context.contextSize - maxAnswerChars(group) - SAFETY_TOKENS;
            for (const part of planParts(loaded, group, promptBudget)) {
              signal?.throwIfAborted();
              const result = await runPart(loaded, sequence, part, signal);
              partials.push(result.answers);
              tokens += result.tokens;
            }
          }
          const merged = mergeAnswers(partials, input);
          return {
            engine: 'llama.cpp',
            model: opts.modelName,
            summary: merged.summary,
            answers: toAnalysisAnswers(merged, input),
            tokens_used: tokens,
          };
        } finally {
          await context.dispose();
        }
      }, signal);
      try {
        return await run;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        throw error;
      }
    },
  };
}
