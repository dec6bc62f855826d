// node-llama-cpp, CPU only, shared by the llama.cpp engine and the test OpenAI server: one Llama
// binding per process, each model file loaded once (lazily, cached by path), and one lock per
// model so generations run one at a time (on a CPU they only compete for the same cores).
//
// The binding is the prebuilt CPU one from @node-llama-cpp/linux-x64: `gpu: false` never looks for
// the CUDA/Vulkan packages (which package.json replaces with an empty stub), and `build: 'never'`
// with `skipDownload: true` means a missing binary is an error, never a download or a cmake build.
import { Mutex, runExclusive } from '../../platform/mutex.ts';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  getLlama,
  LlamaLogLevel,
  resolveChatWrapper,
  type ChatHistoryItem,
  type ChatWrapper,
  type Llama,
  type LlamaModel,
} from 'node-llama-cpp';
import { EngineError } from './types.ts';

let llamaPromise: Promise<Llama> | null = null;

function log(level: LlamaLogLevel, message: string): void {
  const text = message.trim();
  if (text === '') return;
  // The test fixture's vocabulary triggers this on every load; it is harmless.
  if (text.includes('control-looking token')) return;
  process.stderr.write(`[llama.cpp ${level}] ${text}\n`);
}

/** The CPU binding, loaded once per process. */
export function getCpuLlama(): Promise<Llama> {
  llamaPromise ??= getLlama({
    gpu: false,
    build: 'never',
    skipDownload: true,
    usePrebuiltBinaries: true,
    progressLogs: false,
    logLevel: LlamaLogLevel.warn,
    logger: log,
  }).catch((error: unknown) => {
    llamaPromise = null;
    const e = error as Error;
    const detail = e.message && e.message !== e.name ? `${e.name}: ${e.message}` : e.name;
    throw new EngineError('engine_unavailable', `the prebuilt CPU binding of llama.cpp could not be loaded (${detail}); is @node-llama-cpp/${process.platform}-${process.arch} installed? Nothing is downloaded or built at run time.`, false);
  });
  return llamaPromise;
}

/** One generation at a time per model, in order; a waiter whose signal aborts leaves the queue. */
export class Lock {
  readonly #mutex = new Mutex();

  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return runExclusive(this.#mutex, task, signal);
  }
}

export interface LoadedModel {
  llama: Llama;
  model: LlamaModel;
  chatWrapper: ChatWrapper;
  lock: Lock;
}

const models = new Map<string, Promise<LoadedModel>>();

/** The model at modelPath, loaded on first use and kept; a failed load is not cached. The file is
 * checked first, so a wrong path is a clear, non-retryable error. */
export function loadModelCached(modelPath: string): Promise<LoadedModel> {
  const key = path.resolve(modelPath);
  let entry = models.get(key);
  if (!entry) {
    entry = (async () => {
      const stat = await fs.stat(key).catch(() => null);
      if (!stat?.isFile()) throw new EngineError('model_not_found', `the model file ${key} does not exist`, false);
      const llama = await getCpuLlama();
      let model: LlamaModel;
      try {
        model = await llama.loadModel({ modelPath: key, gpuLayers: 0 });
      } catch (error) {
        throw new EngineError('model_load_failed', `the model ${path.basename(key)} could not be loaded: ${(error as Error).message}`, false);
      }
      return { llama, model, chatWrapper: resolveChatWrapper(model), lock: new Lock() };
    })();
    entry.catch(() => models.delete(key));
    models.set(key, entry);
  }
  return entry;
}

/** Tokens of a whole chat prompt as the model's chat template renders it, up to where the
 * assistant's reply starts. */
export function countPromptTokens(loaded: LoadedModel, history: ChatHistoryItem[]): number {
  const { contextText } = loaded.chatWrapper.generateContextState({ chatHistory: [...history, { type: 'model', response: [] }] });
  return contextText.tokenize(loaded.model.tokenizer).length;
}

/** Disposes every loaded model and the binding (for scripts and tests, so the process can exit). */
export async function disposeLlamaRuntime(): Promise<void> {
  const entries = [...models.values()];
  models.clear();
  for (const entry of entries) {
    const loaded = await entry.catch(() => null);
    if (loaded && !loaded.model.disposed) await loaded.model.dispose();
  }
  const llama = await llamaPromise?.catch(() => null);
  llamaPromise = null;
  if (llama && !llama.disposed) await llama.dispose();
}
