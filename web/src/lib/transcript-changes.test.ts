import { describe, expect, test } from 'vitest';
import { transcriptChanges } from './transcript-changes.ts';

const scenario = { engine: 'pocketsphinx' as const, model: 'en-us', language: 'en', options: { word_timestamps: true, summary: false, vocabulary: ['Zendesk'], spot: [], format: true } };

describe('what a transcription scenario save changes in its transcripts', () => {
  test('names the changed parts in words, and nothing for a save that changes no transcript', () => {
    expect(transcriptChanges(scenario, scenario)).toEqual([]);
    expect(transcriptChanges(scenario, { ...scenario, options: { ...scenario.options, vocabulary: ['Zendesk', 'HubSpot'], spot: ['this call may be recorded'] } })).toEqual(['vocabulary', 'phrases to find']);
    expect(transcriptChanges(scenario, { ...scenario, model: 'other' })).toEqual(['engine']);
    // Left out is the default: the same transcript.
    expect(transcriptChanges({ ...scenario, options: { word_timestamps: true, summary: false } }, { ...scenario, options: { word_timestamps: true, summary: false, format: true } })).toEqual([]);
    expect(transcriptChanges(undefined, scenario)).toEqual([]);
  });
});
