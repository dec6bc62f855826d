// whisper.cpp: see the engine notes in the README; the binding lands with the whisper.cpp issue.
import type { Config } from '../../config.ts';
import { EngineError, type TranscriptionEngine } from './types.ts';

export function whisperCppEngine(_config: Config): TranscriptionEngine {
  return {
    name: 'whisper.cpp',
    async transcribe() {
      throw new EngineError('engine_unavailable', 'the whisper.cpp engine is not installed in this build', false);
    },
  };
}
