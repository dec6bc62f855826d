// Checks shared by both kinds of scenario: the stored selection (which recordings an execution
// without recording_ids takes) and an engine's base URL.
import { invalid } from '../errors.ts';
import { checkMetadata } from './recordings.ts';

export interface Selection {
  metadata: Record<string, unknown>;
  statuses: string[];
}

export function checkSelection(ctx: { config: { maxMetadataBytes: number } }, selection: Selection): Selection {
  return { metadata: checkMetadata(ctx, selection.metadata, 'selection/metadata').value, statuses: selection.statuses };
}

/** The address itself is checked when the engine is called (the import guard applies there). */
export function checkBaseUrl(raw: string): void {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw invalid('options/base_url', 'must be an http or https URL');
}
