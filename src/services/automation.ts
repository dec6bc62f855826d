// What happens by itself when a state changes: automatic scenarios start runs.
import type { Context } from '../context.ts';
import type { Trx } from '../db/database.ts';
import type { Recording } from './recordings.ts';

/** Called in the transaction that marks a recording's audio as prepared. */
export async function onRecordingPrepared(_ctx: Context, _trx: Trx, _recording: Recording): Promise<void> {}
