// A scenario's stored selection: which recordings an execution without recording_ids takes.
import { checkMetadata } from './recordings.ts';

export interface Selection {
  metadata: Record<string, unknown>;
  statuses: string[];
}

export function checkSelection(ctx: { config: { maxMetadataBytes: number } }, selection: Selection): Selection {
  return { metadata: checkMetadata(ctx, selection.metadata, 'selection/metadata').value, statuses: selection.statuses };
}
