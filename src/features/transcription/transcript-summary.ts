// A transcript's optional summary, made by the embedded basic analysis engine.
import type { TranscriptionResult } from '../../engines/transcription/types.ts';

export async function summarizeTranscript(result: TranscriptionResult): Promise<string | null> {
  if (result.segments.length === 0) return null;
  const { basicEngine } = await import('../../engines/analysis/registry.ts');
  const output = await (await basicEngine()).analyze({ transcript: { text: result.text, segments: result.segments }, instructions: '', questions: [], summary: true });
  return output.summary;
}
