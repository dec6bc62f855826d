// Analysis engines by name, loaded lazily. Adding an engine touches its file and this list.
import type { Config } from '../../config.ts';
import type { AnalysisEngine } from './types.ts';

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
    case 'llama.cpp':
    case 'openai':
      throw new Error(`the ${name} analysis engine is not installed in this build (${settings.model})`);
    default:
      throw new Error(`unknown analysis engine ${name}`);
  }
}
