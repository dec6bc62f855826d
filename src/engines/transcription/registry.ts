// Transcription engines by name. Engines load lazily: a worker that never runs whisper.cpp never
// loads its binding. Adding an engine touches its file and this list.
import { modelPath } from '../models.ts';
import type { EngineSettings, TranscriptionEngine } from './types.ts';

export const transcriptionEngineNames = ['pocketsphinx', 'whisper.cpp', 'openai'] as const;
export type TranscriptionEngineName = (typeof transcriptionEngineNames)[number];

export const defaultModels: Record<TranscriptionEngineName, string> = {
  pocketsphinx: 'en-us',
  'whisper.cpp': 'base.en',
  openai: 'whisper-1',
};

export type { EngineSettings };

export async function loadTranscriptionEngine(name: string, settings: EngineSettings): Promise<TranscriptionEngine> {
  switch (name) {
    case 'pocketsphinx':
      return (await import('./pocketsphinx.ts')).pocketsphinxEngine(settings.config);
    case 'openai':
      return (await import('./openai.ts')).openaiTranscriptionEngine(settings);
    case 'whisper.cpp':
      return (await import('./whisper-cpp.ts')).whisperCppEngine((model) => modelPath(settings.config, 'whisper.cpp', model), settings.config.whisperThreads);
    default:
      throw new Error(`unknown transcription engine ${name}`);
  }
}
