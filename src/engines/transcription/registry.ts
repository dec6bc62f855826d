// Transcription engines by name, each described once: its default model and language, the models
// and languages it takes, whether it is a remote server (an address per scenario), whether Hark
// formats its text, how its model is checked and how it loads. Everything else (the catalog,
// scenario checks, the OpenAI-compatible route, runs) reads these descriptors, so adding an engine
// is its file and one entry here. Engines load lazily: a worker that never runs whisper.cpp never
// loads its binding.
import type { Config } from '../../config.ts';
import { invalid } from '../../errors.ts';
import { checkModelAvailable, listModels, modelPath } from '../models.ts';
import type { EngineSettings, SentenceOdds, TranscriptionEngine, VocabularyTerm } from './types.ts';

export type { EngineSettings };

export interface TranscriptionEngineDescriptor {
  defaultModel: string;
  /** The language a new scenario gets ("auto": the engine detects it). */
  defaultLanguage: string;
  /** The only languages it takes; null: any. */
  languages: readonly string[] | null;
  /** A server of the scenario's (base_url): its address is checked, and remote engines may be turned off. */
  remote: boolean;
  /** It takes any model name (its server knows them); else `models` lists what this server has. */
  anyModel: boolean;
  /** It writes lower case without punctuation: Hark formats its text (the `format` option). */
  unformatted: boolean;
  /** Where its text is formatted: the odds of a sentence end before each word, from its own language model; null: formatting's rules alone. */
  sentenceOdds: (() => Promise<SentenceOdds>) | null;
  models(config: Config): Promise<string[]>;
  /** A 400 when `model` cannot run here. */
  checkModel(config: Config, model: string): Promise<void>;
  /** A 400 naming the first term of a vocabulary the engine cannot take (pocketsphinx: one it cannot pronounce). */
  checkVocabulary(terms: readonly VocabularyTerm[]): Promise<void>;
  /** It spots phrases in the audio (the `spot` option); an engine that does not refuses them. */
  spots: boolean;
  /** A 400 naming the first phrase to spot the engine cannot search for (only pocketsphinx spots). */
  checkSpot(phrases: readonly string[]): Promise<void>;
  load(settings: EngineSettings): Promise<TranscriptionEngine>;
}

/** pocketsphinx's set-up for a list of terms, a 400 naming the first one it cannot pronounce (`path/i`). */
async function pronounceable(path: string, setup: () => Promise<unknown>): Promise<void> {
  const { UnpronounceableTerm } = await import('./pocketsphinx-vocabulary.ts');
  try {
    await setup();
  } catch (error) {
    if (error instanceof UnpronounceableTerm) throw invalid(`${path}/${error.index}`, error.message);
    throw error;
  }
}

const noSpotting = (engine: string) => async (phrases: readonly string[]) => {
  if (phrases.length > 0) throw invalid('options/spot', `${engine} does not spot phrases in the audio; only pocketsphinx does (phrase rules still read the transcript)`);
};

export const transcriptionEngines = {
  pocketsphinx: {
    defaultModel: 'en-us',
    defaultLanguage: 'en',
    languages: ['en'],
    remote: false,
    anyModel: false,
    unformatted: true,
    sentenceOdds: async () => (await import('./pocketsphinx-sentences.ts')).sentenceEndOdds,
    models: async () => ['en-us'],
    checkModel: async (_config, model) => {
      if (model !== 'en-us') throw invalid('model', 'pocketsphinx has one model: "en-us"');
    },
    checkVocabulary: (terms) => pronounceable('options/vocabulary', async () => (await import('./pocketsphinx-vocabulary.ts')).decoderVocabulary(terms)),
    spots: true,
    checkSpot: (phrases) => pronounceable('options/spot', async () => (await import('./pocketsphinx-vocabulary.ts')).spottingDecoder(phrases)),
    load: async (settings) => (await import('./pocketsphinx.ts')).pocketsphinxEngine(settings.config),
  },
  'whisper.cpp': {
    defaultModel: 'base.en',
    defaultLanguage: 'auto',
    languages: null,
    remote: false,
    anyModel: false,
    unformatted: false,
    sentenceOdds: null,
    models: async (config) => (await listModels(config)).filter((m) => m.engine === 'whisper.cpp').map((m) => m.name),
    checkModel: (config, model) => checkModelAvailable({ config }, 'whisper.cpp', model),
    checkVocabulary: async () => {},
    spots: false,
    checkSpot: noSpotting('whisper.cpp'),
    load: async (settings) => (await import('./whisper-cpp.ts')).whisperCppEngine((model) => modelPath(settings.config, 'whisper.cpp', model), settings.config.whisperThreads),
  },
  openai: {
    defaultModel: 'whisper-1',
    defaultLanguage: 'auto',
    languages: null,
    remote: true,
    anyModel: true,
    unformatted: false,
    sentenceOdds: null,
    models: async () => ['whisper-1'],
    checkModel: async () => {},
    checkVocabulary: async () => {},
    spots: false,
    checkSpot: noSpotting('openai'),
    load: async (settings) => (await import('./openai.ts')).openaiTranscriptionEngine(settings),
  },
} satisfies Record<string, TranscriptionEngineDescriptor>;

export type TranscriptionEngineName = keyof typeof transcriptionEngines;
export const transcriptionEngineNames = Object.keys(transcriptionEngines) as TranscriptionEngineName[];

export const defaultModels = Object.fromEntries(Object.entries(transcriptionEngines).map(([name, engine]) => [name, engine.defaultModel])) as Record<TranscriptionEngineName, string>;

/** The descriptor of an engine name (a 400 naming the engines for an unknown one). */
export function transcriptionEngine(name: string): TranscriptionEngineDescriptor {
  if (!(name in transcriptionEngines)) throw invalid('engine', `must be one of ${transcriptionEngineNames.join(', ')}`);
  return transcriptionEngines[name as TranscriptionEngineName];
}

/** A scenario's language checked against what its engine takes. */
export function checkLanguage(name: string, language: string): void {
  const { languages } = transcriptionEngine(name);
  if (languages && !languages.includes(language)) throw invalid('language', `${name} takes only ${languages.map((l) => `"${l}"`).join(' or ')}`);
}

export async function loadTranscriptionEngine(name: string, settings: EngineSettings): Promise<TranscriptionEngine> {
  if (!(name in transcriptionEngines)) throw new Error(`unknown transcription engine ${name}`);
  return transcriptionEngines[name as TranscriptionEngineName].load(settings);
}
