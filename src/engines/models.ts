// Local model files registered by the operator (`hark models add NAME PATH`): whisper.cpp ggml
// files and llama.cpp GGUF files, listed in HARK_DATA_DIR/models.json by name.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { invalid } from '../errors.ts';

export const modelEngines = ['whisper.cpp', 'llama.cpp'] as const;
export type ModelEngine = (typeof modelEngines)[number];

type Registry = Partial<Record<ModelEngine, Record<string, string>>>;

const registryPath = (config: Config) => path.join(config.dataDir, 'models.json');

async function readRegistry(config: Config): Promise<Registry> {
  try {
    return JSON.parse(await fs.readFile(registryPath(config), 'utf8')) as Registry;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

/** Which engine a model file is for, from its magic bytes. */
export async function detectModelEngine(file: string): Promise<ModelEngine> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    const magic = head.toString('latin1');
    if (magic === 'GGUF') return 'llama.cpp';
    if (magic === 'lmgg' || magic === 'ggml' || magic === 'ggjt') return 'whisper.cpp';
    throw new Error(`${file} is neither a GGUF (llama.cpp) nor a ggml (whisper.cpp) model file`);
  } finally {
    await handle.close();
  }
}

export async function addModel(config: Config, name: string, file: string): Promise<{ engine: ModelEngine; path: string }> {
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name)) throw new Error('a model name uses letters, digits, ".", "_" and "-"');
  const absolute = path.resolve(file);
  const engine = await detectModelEngine(absolute);
  const registry = await readRegistry(config);
  registry[engine] = { ...registry[engine], [name]: absolute };
  await fs.mkdir(config.dataDir, { recursive: true });
  await fs.writeFile(registryPath(config), `${JSON.stringify(registry, null, 2)}\n`);
  return { engine, path: absolute };
}

export async function listModels(config: Config): Promise<{ engine: ModelEngine; name: string; path: string }[]> {
  const registry = await readRegistry(config);
  return modelEngines.flatMap((engine) => Object.entries(registry[engine] ?? {}).map(([name, file]) => ({ engine, name, path: file })));
}

/** The file of a registered model, checked to exist (some bindings crash on a bad path). */
export async function modelPath(config: Config, engine: ModelEngine, name: string): Promise<string | null> {
  const file = (await readRegistry(config))[engine]?.[name];
  if (!file) return null;
  try {
    await fs.access(file, fs.constants.R_OK);
    return file;
  } catch {
    return null;
  }
}

export async function checkModelAvailable(ctx: { config: Config }, engine: ModelEngine, name: string): Promise<void> {
  if (!(await modelPath(ctx.config, engine, name))) {
    throw invalid('model', `no ${engine} model named "${name}" is installed; an operator adds one with \`hark models add ${name} /path/to/file\``);
  }
}
