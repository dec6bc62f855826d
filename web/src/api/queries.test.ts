// @vitest-environment jsdom
import { partialMatchKey } from '@tanstack/query-core';
import { describe, expect, it } from 'vitest';
import { keys, queries } from './queries.ts';

describe('query keys', () => {
  it('each query sits under the prefix its resource is invalidated by', () => {
    const ws = 'ws-1';
    const pairs: [readonly unknown[], readonly unknown[]][] = [
      [queries.recordings(ws, { sort: 'created_at' }).queryKey, keys.recordings(ws)],
      [queries.recording(ws, 'fl-1').queryKey, keys.recording(ws, 'fl-1')],
      [queries.transcript(ws, 'fl-1', [{ id: 'tr-1', status: 'completed' }]).queryKey, keys.transcript(ws, 'fl-1')],
      [queries.recordingCategories(ws, 'fl-1', []).queryKey, keys.recordingCategories(ws, 'fl-1')],
      [queries.analysisResults(ws, 'fl-1', 'an-1').queryKey, keys.analysisResults(ws, 'fl-1')],
      [queries.executions(ws).queryKey, keys.executions(ws)],
      [queries.answers(ws, 'as-1', { limit: 10 }).queryKey, keys.answers(ws, 'as-1')],
      [queries.talkReport(ws, ['metadata.agent']).queryKey, keys.reports(ws)],
      [queries.deliveries(ws, 'wh-1').queryKey, keys.deliveries(ws, 'wh-1')],
    ];
    for (const [key, prefix] of pairs) expect(partialMatchKey(key, prefix), JSON.stringify(key)).toBe(true);
  });

  it('another workspace, recording or filter is another entry', () => {
    expect(partialMatchKey(queries.recordings('ws-2', { sort: 'created_at' }).queryKey, keys.recordings('ws-1'))).toBe(false);
    expect(queries.recordings('ws-1', { sort: 'created_at' }).queryKey).not.toEqual(queries.recordings('ws-1', { sort: 'recorded_at' }).queryKey);
    expect(partialMatchKey(queries.transcript('ws-1', 'fl-2', []).queryKey, keys.transcript('ws-1', 'fl-1'))).toBe(false);
  });

  it('a run that completes after a newer one is another transcript: the page reads it again', () => {
    // Runs newest first: tr-2 was started last and completed first; tr-1 completes after it.
    const before = [{ id: 'tr-2', status: 'completed' }, { id: 'tr-1', status: 'transcribing' }];
    const after = [{ id: 'tr-2', status: 'completed' }, { id: 'tr-1', status: 'completed' }];
    expect(queries.transcript('ws-1', 'fl-1', after).queryKey).not.toEqual(queries.transcript('ws-1', 'fl-1', before).queryKey);
    expect(queries.recordingCategories('ws-1', 'fl-1', after).queryKey).not.toEqual(queries.recordingCategories('ws-1', 'fl-1', before).queryKey);
    expect(queries.transcript('ws-1', 'fl-1', [{ id: 'tr-1', status: 'failed' }]).enabled).toBe(false);
  });
});
