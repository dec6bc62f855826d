// The scenarios every new workspace starts with, on the embedded engines.
import type { Insertable } from 'kysely';
import type { AnalysisScenariosTable, TranscriptionScenariosTable } from '../platform/db/tables.ts';
import { newId } from '../ids.ts';
import { defaultRetry, emptySelection } from '../core/scenarios/defaults.ts';

/** `auto`: whether it transcribes every upload (HARK_AUTO_TRANSCRIBE, on by default). */
export function defaultTranscriptionScenario(workspaceId: string, auto: boolean): Insertable<TranscriptionScenariosTable> {
  return {
    id: newId('transcriptionScenario'),
    workspace_id: workspaceId,
    name: 'Default transcription (pocketsphinx, English)',
    engine: 'pocketsphinx',
    model: 'en-us',
    language: 'en',
    // Card numbers said on a call are never stored in clear unless a workspace asks for it.
    options: JSON.stringify({ word_timestamps: true, summary: false, redact: ['credit_card'] }),
    auto,
    retry: JSON.stringify(defaultRetry),
    selection: JSON.stringify(emptySelection),
    updated_at: new Date(),
  };
}

export function defaultAnalysisScenario(workspaceId: string): Insertable<AnalysisScenariosTable> {
  return {
    id: newId('analysisScenario'),
    workspace_id: workspaceId,
    name: 'Default call review (basic engine)',
    engine: 'basic',
    model: 'wink-eng-lite-web-model',
    instructions: 'Review the call.',
    questions: JSON.stringify([
      { id: 'greeting', text: 'Did the agent greet the customer?', type: 'boolean' },
      { id: 'request', text: 'What did the customer ask for?', type: 'text' },
    ]),
    summary: true,
    auto: false,
    options: JSON.stringify({}),
    retry: JSON.stringify(defaultRetry),
    selection: JSON.stringify(emptySelection),
    updated_at: new Date(),
  };
}
