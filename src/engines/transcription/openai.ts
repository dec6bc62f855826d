// openai: any OpenAI-compatible /audio/transcriptions server, asked for verbose_json with word
// and segment timestamps.
import fs from 'node:fs';
import { postToEngine } from '../openai-endpoint.ts';
import { segmentWords } from './segments.ts';
import { EngineError, type EngineSettings, type Segment, type TranscriptionEngine, type Word } from './types.ts';
import { promptOf } from './prompt.ts';

interface VerboseJson {
  language?: string;
  text?: string;
  segments?: { start: number; end: number; text: string }[];
  words?: { start: number; end: number; word: string; probability?: number; confidence?: number }[];
}

const languageCodes: Record<string, string> = { english: 'en', german: 'de', french: 'fr', spanish: 'es', italian: 'it', dutch: 'nl', portuguese: 'pt', russian: 'ru', japanese: 'ja', chinese: 'zh' };

export function openaiTranscriptionEngine(settings: EngineSettings): TranscriptionEngine {
  return {
    name: 'openai',
    async transcribe(request, control) {
      const form = new FormData();
      form.set('file', await fs.openAsBlob(request.audioPath, { type: 'audio/wav' }), 'audio.wav');
      form.set('model', request.model);
      form.set('response_format', 'verbose_json');
      form.append('timestamp_granularities[]', 'segment');
      if (request.wordTimestamps) form.append('timestamp_granularities[]', 'word');
      if (request.language !== 'auto') form.set('language', request.language);
      const prompt = promptOf(request);
      if (prompt) form.set('prompt', prompt);
      control.onProgress(0.05);
      const body = (await postToEngine(settings.config, settings.baseUrl, '/audio/transcriptions', form, control.signal)) as VerboseJson;
      if (typeof body !== 'object' || body === null || (typeof body.text !== 'string' && !Array.isArray(body.segments))) {
        throw new EngineError('engine_bad_response', 'the engine\'s answer has no text or segments', true);
      }
      const words: Word[] = (body.words ?? []).map((w) => ({ start: w.start, end: w.end, word: w.word.trim(), confidence: w.probability ?? w.confidence ?? 1 }));
      const segments: Segment[] = body.segments?.map((s) => ({ start: s.start, end: s.end, text: s.text.trim() })) ?? segmentWords(words);
      const language = (body.language ?? request.language).toLowerCase();
      return { language: languageCodes[language] ?? language, text: (body.text ?? segments.map((s) => s.text).join(' ')).trim(), segments, words };
    },
  };
}
