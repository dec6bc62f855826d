// pocketsphinx: Debian's libpocketsphinx3 with the en-us model, called in-process through koffi
// (binding in ./pocketsphinx-native.ts). Decoders are loaded once and reused: one per concurrent
// run, each decoding a file on koffi's thread pool as utterances of at most 2 minutes cut at quiet
// moments, read from disk a chunk at a time.
import type { Config } from '../../config.ts';
import { createPocketsphinx, type Pocketsphinx } from './pocketsphinx-native.ts';
import { openPcmFile } from './pcm-file.ts';
import { segmentWords } from './segments.ts';
import { EngineError, type TranscriptionEngine } from './types.ts';

export function pocketsphinxEngine(_config: Config): TranscriptionEngine {
  const idle: Pocketsphinx[] = [];
  const take = (): Pocketsphinx => {
    const decoder = idle.pop();
    if (decoder) return decoder;
    try {
      return createPocketsphinx();
    } catch (error) {
      throw new EngineError('engine_unavailable', `pocketsphinx could not start: ${(error as Error).message}`, false);
    }
  };
  return {
    name: 'pocketsphinx',
    async transcribe(request, control) {
      const pcm = openPcmFile(request.audioPath);
      const decoder = take();
      try {
        const result = await decoder.decodeAsync(pcm, (fraction) => {
          control.onProgress(fraction);
          if (control.signal.aborted) throw new EngineError('cancelled', 'the run was cancelled', false);
        });
        const words = result.words.map((w) => ({ ...w, start: round(w.start), end: round(w.end), confidence: round(w.confidence) }));
        return { language: 'en', text: result.text, segments: segmentWords(words), words };
      } finally {
        pcm.close();
        idle.push(decoder);
      }
    },
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
