// Analysis engines by name, loaded lazily. Adding an engine touches its file and this list.
import type { Config } from '../../config.ts';
import { modelPath as modelPath_ } from '../models.ts';
import { baseUrlOf, engineAddressPolicy } from '../openai-endpoint.ts';
import { EngineError, type AnalysisEngine } from './types.ts';

export const analysisEngineNames = ['basic', 'llama.cpp', 'openai'] as const;
export type AnalysisEngineName = (typeof analysisEngineNames)[number];

export const defaultAnalysisModels: Record<AnalysisEngineName, string> = {
  basic: 'wink-eng-lite-web-model',
  'llama.cpp': 'default',
  openai: 'gpt-4o-mini',
};

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

export async function loadAnalysisEngine(name: string, settings: AnalysisEngineSettings): Promise<AnalysisEngine> {
  switch (name) {
    case 'basic':
      return basicEngine();
    case 'llama.cpp': {
      const modelPath = await modelPath_(settings.config, 'llama.cpp', settings.model);
      if (!modelPath) throw new EngineError('model_not_found', `no llama.cpp model named "${settings.model}" is installed (hark models add)`, false);
      return (await import('./llama-cpp.ts')).llamaCppEngine({ modelPath, modelName: settings.model, threads: settings.config.llamaThreads });
    }
    case 'openai': {
      const baseUrl = baseUrlOf(settings.config, settings.baseUrl);
      const policy = engineAddressPolicy(settings.config, settings.baseUrl !== null);
      return (await import('./openai.ts')).openaiAnalysisEngine({ baseUrl, apiKey: settings.config.openai.apiKey, model: settings.model, policy });
    }
    default:
      throw new Error(`unknown analysis engine ${name}`);
  }
}
