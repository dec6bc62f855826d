// Redacted audio: the recording's audio with the redacted words silenced, written while the run
// works. The completing transaction stores it as the redacted copy, which playback and downloads
// serve from then on; each redaction silences the current redacted copy, so kinds redacted by an
// earlier run stay silent. Without keep_original_audio, once the completion has committed, the
// original upload is deleted and the prepared audio (and each channel) replaced by silenced copies,
// so later runs work on redacted audio too.
import fs from 'node:fs/promises';
import type { Context } from '../../context.ts';
import type { Trx } from '../../platform/db/database.ts';
import { EngineError } from '../../platform/engine-error.ts';
import { MAX_SEPARATE_CHANNELS } from '../../platform/media/ffmpeg.ts';
import { silenceSpans } from '../../platform/media/silence.ts';
import type { Recording } from '../../core/recordings/recordings.ts';
import { recordingKeys } from '../../platform/storage/blobs.ts';
import type { RedactedSpan } from './redaction.ts';
import { audioRedacted } from '../../core/recordings/recording-store.ts';

export interface RedactedAudio {
  /** Scratch files: the silenced copy; without the original, the new prepared mix and channels. */
  copy: string;
  prepared: string | null;
  channels: string[];
}

const scratchFiles = (audio: RedactedAudio) => [audio.copy, ...(audio.prepared ? [audio.prepared] : []), ...audio.channels];

export async function redactAudio(ctx: Context, recording: Recording, spans: readonly RedactedSpan[], keepOriginal: boolean): Promise<RedactedAudio> {
  const keys = recordingKeys(recording.workspace_id, recording.id);
  // Every channel's words are silenced everywhere: the mix holds all channels.
  const times = spans.map(({ start, end }) => ({ start, end }));
  const replace = !keepOriginal;
  const channelFiles = replace && recording.channels !== null && recording.channels >= 2 && recording.channels <= MAX_SEPARATE_CHANNELS ? recording.channels : 0;
  const audio: RedactedAudio = { copy: ctx.blobs.tempPath(), prepared: replace ? ctx.blobs.tempPath() : null, channels: Array.from({ length: channelFiles }, () => ctx.blobs.tempPath()) };
  try {
    await ctx.blobs.withLocalFile(recording.audio_redacted_at !== null ? keys.redacted : keys.prepared, (file) => silenceSpans(file, audio.copy, times));
    if (audio.prepared) await fs.copyFile(audio.copy, audio.prepared);
    for (const [channel, temp] of audio.channels.entries()) await ctx.blobs.withLocalFile(keys.channel(channel), (file) => silenceSpans(file, temp, times));
  } catch (error) {
    await discardRedactedAudio(ctx, audio);
    throw new EngineError('redaction_failed', `the audio could not be redacted: ${(error as Error).message}`, true);
  }
  return audio;
}

/**
 * In the completing transaction: the redacted copy is stored and the recording says so. Another
 * redaction committed since this run read the audio would be undone by this copy: the run is tried
 * again instead, from the newer copy.
 */
export async function storeRedactedAudio(ctx: Context, trx: Trx, recording: Recording, audio: RedactedAudio): Promise<void> {
  const current = await trx.selectFrom('recordings').select('audio_redacted_at').where('id', '=', recording.id).forNoKeyUpdate().executeTakeFirst();
  if ((current?.audio_redacted_at?.getTime() ?? null) !== (recording.audio_redacted_at?.getTime() ?? null)) {
    throw new EngineError('redaction_conflict', 'another run redacted the audio meanwhile; this run starts again from its copy', true);
  }
  await audioRedacted(trx, recording.id, audio.prepared !== null);
  await ctx.blobs.commit(audio.copy, recordingKeys(recording.workspace_id, recording.id).redacted);
}

/** After the completion committed: the unredacted audio goes when the scenario keeps no original. */
export async function replaceUnredactedAudio(ctx: Context, recording: Recording, audio: RedactedAudio): Promise<void> {
  const keys = recordingKeys(recording.workspace_id, recording.id);
  if (!audio.prepared) return;
  for (const [channel, temp] of audio.channels.entries()) await ctx.blobs.commit(temp, keys.channel(channel));
  await ctx.blobs.commit(audio.prepared, keys.prepared);
  await ctx.blobs.remove(keys.original);
}

export async function discardRedactedAudio(ctx: Context, audio: RedactedAudio): Promise<void> {
  for (const file of scratchFiles(audio)) await ctx.blobs.removeTemp(file);
}
