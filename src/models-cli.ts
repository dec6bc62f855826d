// `hark models add|list|pull`: local model files for the whisper.cpp and llama.cpp engines.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from './config.ts';
import { addModel, listModels } from './engines/models.ts';
import { byteProgress } from './progress.ts';

const WHISPER_HOST = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

async function pull(config: Config, name: string): Promise<void> {
  if (!/^[a-z0-9.-]+$/.test(name)) throw new Error('a whisper model name looks like tiny.en, base, small.en, large-v3');
  const target = path.join(config.dataDir, 'models', `ggml-${name}.bin`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const url = `${WHISPER_HOST}/ggml-${name}.bin`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  } catch {
    throw new Error(`could not reach ${new URL(url).host}: this host has no route to the public model host. Copy the file here by other means and run \`hark models add ${name} /path/to/ggml-${name}.bin\``);
  }
  if (!response.ok || !response.body) throw new Error(`the model host answered HTTP ${response.status} for ${name}`);
  const temp = `${target}.part`;
  await pipeline(Readable.fromWeb(response.body as never), byteProgress(Number(response.headers.get('content-length') ?? 0)), fs.createWriteStream(temp));
  fs.renameSync(temp, target);
  const added = await addModel(config, name, target);
  console.log(JSON.stringify({ name, ...added }));
}

/** `args`: the action and its arguments (options already refused); `usageError` makes the error for a command line that means nothing. */
export async function modelsCommand(config: Config, args: string[], usageError: (problem: string) => Error): Promise<void> {
  const [action, name, file] = args;
  if (action === 'add' && name && file && args.length === 3) {
    if (!fs.existsSync(file)) throw new Error(`There is no file at ${path.resolve(file)}: give the path of a whisper.cpp (ggml) or llama.cpp (GGUF) model file.`);
    if (fs.statSync(file).isDirectory()) throw new Error(`${path.resolve(file)} is a folder, not a model file: give the path of a whisper.cpp (ggml) or llama.cpp (GGUF) model file.`);
    if (!fs.statSync(file).isFile()) throw new Error(`${path.resolve(file)} is not a regular file: give the path of a whisper.cpp (ggml) or llama.cpp (GGUF) model file.`);
    console.log(JSON.stringify({ name, ...(await addModel(config, name, file)) }));
  } else if (action === 'list' && args.length === 1) {
    const models = await listModels(config);
    if (models.length === 0) console.log(`No models are registered in ${path.join(config.dataDir, 'models')}: add one with \`hark models add NAME PATH\`.`);
    for (const model of models) console.log(`${model.engine}\t${model.name}\t${model.path}`);
  } else if (action === 'pull' && name && args.length === 2) {
    await pull(config, name);
  } else if (action === undefined) {
    throw usageError('Name an action: add, list or pull');
  } else if (!['add', 'list', 'pull'].includes(action)) {
    throw usageError(`Unknown action '${action}'`);
  } else {
    throw usageError(`Wrong arguments for '${action}'`);
  }
}
