// Redacted audio: the prepared audio with the redacted words silenced, written while the run works
// and committed with its completion. Playback and downloads serve it from then on; without
// keep_original_audio the unredacted audio (the original, the prepared mix and each channel) is
// replaced or deleted, so later runs work on the redacted audio too.
import { sql } from 'kysely';
import type { Context } from '../context.ts';
import type { Trx } from '../db/database.ts';
import { EngineError } from '../engines/engine-error.ts';
import { MAX_SEPARATE_CHANNELS, silenceSpans } from '../media/ffmpeg.ts';
import type { Recording } from '../services/recordings.ts';
import { recordingKeys } from '../storage/blobs.ts';
import type { RedactedSpan } from './redaction.ts';

export interface RedactedAudio {
  /** Scratch files: the silenced mix, and each silenced channel when the original goes. */
  mix: string;
  channels: string[];
  keepOriginal: boolean;
}

export async function redactAudio(ctx: Context, recording: Recording, spans: readonly RedactedSpan[], keepOriginal: boolean): Promise<RedactedAudio> {
  const keys = recordingKeys(recording.workspace_id, recording.id);
  // Once the original is gone the prepared audio is the redacted copy: later redactions replace it.
  const keep = keepOriginal && recording.original_audio_deleted_at === null;
  // Every channel's words are silenced everywhere: the mix holds all channels.
  const times = spans.map(({ start, end }) => ({ start, end }));
  const channelFiles = !keep && recording.channels !== null && recording.channels >= 2 && recording.channels <= MAX_SEPARATE_CHANNELS ? recording.channels : 0;
  const mix = ctx.blobs.tempPath();
  const channels = Array.from({ length: channelFiles }, () => ctx.blobs.tempPath());
  try {
    await ctx.blobs.withLocalFile(keys.prepared, (file) => silenceSpans(file, mix, times));
    for (const [channel, temp] of channels.entries()) await ctx.blobs.withLocalFile(keys.channel(channel), (file) => silenceSpans(file, temp, times));
  } catch (error) {
    for (const temp of [mix, ...channels]) await ctx.blobs.removeTemp(temp);
    throw new EngineError('redaction_failed', `the audio could not be redacted: ${(error as Error).message}`, true);
  }
  return { mix, channels, keepOriginal: keep };
}

/** Stores the redacted audio and says so on the recording, in the run's completing transaction. */
export async function commitRedactedAudio(ctx: Context, trx: Trx, recording: Recording, audio: RedactedAudio): Promise<void> {
  const keys = recordingKeys(recording.workspace_id, recording.id);
  await trx
    .updateTable('recordings')
    .set({
      audio_redacted_at: sql<Date>`now()`,
      ...(audio.keepOriginal ? {} : { original_audio_deleted_at: sql<Date>`coalesce(original_audio_deleted_at, now())` }),
      updated_at: new Date(),
    })
    .where('id', '=', recording.id)
    .execute();
  if (audio.keepOriginal) {
    await ctx.blobs.commit(audio.mix, keys.redacted);
    return;
  }
  for (const [channel, temp] of audio.channels.entries()) await ctx.blobs.commit(temp, keys.channel(channel));
  await ctx.blobs.commit(audio.mix, keys.prepared);
  await ctx.blobs.remove(keys.original);
  await ctx.blobs.remove(keys.redacted);
}
