// Analysis engines by name, each described once (default model, models, remote or local, model
// check, loading), loaded lazily: adding an engine is its file and one entry here.
import type { Config } from '../../config.ts';
import { invalid } from '../../errors.ts';
import { checkModelAvailable, listModels, modelPath as modelPath_ } from '../models.ts';
import { baseUrlOf, engineAddressPolicy, engineKeyFor } from '../openai-endpoint.ts';
import { EngineError, type AnalysisEngine } from './types.ts';

export interface AnalysisEngineDescriptor {
  defaultModel: string;
  /** A server of the scenario's (base_url): its address is checked, and remote engines may be turned off. */
  remote: boolean;
  /** It takes any model name (its server knows them); else `models` lists what this server has. */
  anyModel: boolean;
  models(config: Config): Promise<string[]>;
  /** A 400 when `model` cannot run here. */
  checkModel(config: Config, model: string): Promise<void>;
  load(settings: AnalysisEngineSettings): Promise<AnalysisEngine>;
}

const BASIC_MODEL = 'wink-eng-lite-web-model';

let basic: Promise<AnalysisEngine> | null = null;

/** The embedded engine, one per process (its model loads once). */
export function basicEngine(): Promise<AnalysisEngine> {
  return (basic ??= import('./basic/index.ts').then((m) => m.createBasicEngine()));
}

export interface AnalysisEngineSettings {
  config: Config;
  model: string;
  baseUrl: string | null;
}

/** Each analysis engine described once: the catalog, scenario checks and runs read these. */
export const analysisEngines = {
  basic: {
    defaultModel: BASIC_MODEL,
    remote: false,
    anyModel: false,
    models: async () => [BASIC_MODEL],
    checkModel: async (_config, model) => {
      if (model !== BASIC_MODEL) throw invalid('model', `the basic engine has one model: "${BASIC_MODEL}"`);
    },
    load: () => basicEngine(),
  },
  'llama.cpp': {
    defaultModel: 'default',
    remote: false,
    anyModel: false,
    models: async (config) => (await listModels(config)).filter((m) => m.engine === 'llama.cpp').map((m) => m.name),
    checkModel: (config, model) => checkModelAvailable({ config }, 'llama.cpp', model),
    load: async (settings) => {
      const modelPath = await modelPath_(settings.config, 'llama.cpp', settings.model);
      if (!modelPath) throw new EngineError('model_not_found', `no llama.cpp model named "${settings.model}" is installed (hark models add)`, false);
      return (await import('./llama-cpp.ts')).llamaCppEngine({ modelPath, modelName: settings.model, threads: settings.config.llamaThreads });
    },
  },
  openai: {
    defaultModel: 'gpt-4o-mini',
    remote: true,
    anyModel: true,
    models: async () => ['gpt-4o-mini'],
    checkModel: async () => {},
    load: async (settings) => {
      const baseUrl = baseUrlOf(settings.config, settings.baseUrl);
      const policy = engineAddressPolicy(settings.config, settings.baseUrl !== null);
      return (await import('./openai.ts')).openaiAnalysisEngine({ baseUrl, apiKey: engineKeyFor(settings.config, settings.baseUrl), model: settings.model, policy });
    },
  },
} satisfies Record<string, AnalysisEngineDescriptor>;

export type AnalysisEngineName = keyof typeof analysisEngines;
export const analysisEngineNames = Object.keys(analysisEngines) as AnalysisEngineName[];
export const defaultAnalysisModels = Object.fromEntries(Object.entries(analysisEngines).map(([name, engine]) => [name, engine.defaultModel])) as Record<AnalysisEngineName, string>;

/** The descriptor of an engine name (a 400 naming the engines for an unknown one). */
export function analysisEngine(name: string): AnalysisEngineDescriptor {
  if (!(name in analysisEngines)) throw invalid('engine', `must be one of ${analysisEngineNames.join(', ')}`);
  return analysisEngines[name as AnalysisEngineName];
}

export async function loadAnalysisEngine(name: string, settings: AnalysisEngineSettings): Promise<AnalysisEngine> {
  if (!(name in analysisEngines)) throw new Error(`unknown analysis engine ${name}`);
  return analysisEngines[name as AnalysisEngineName].load(settings);
}
