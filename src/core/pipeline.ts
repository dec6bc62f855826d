// What happens by itself when a call moves along: a workspace gets its first scenarios, a prepared
// recording is transcribed by the automatic scenario, a new transcript (or a corrected one) is
// analysed by the automatic analysis scenario, a template that names speakers labels the channels. The features only announce these moments, inside
// the transaction of the change; what follows is decided by the wiring (wiring/automation.ts),
// which knows every feature, so no feature imports another to make it happen.
import type { Trx } from '../platform/db/database.ts';

export interface PreparedRecording {
  id: string;
  workspace_id: string;
  pipeline: boolean;
}

export interface ReadyTranscript {
  /** The transcription run whose transcript is new. */
  id: string;
  workspace_id: string;
  recording_id: string;
  transcript_id: string | null;
}

export interface Pipeline {
  workspaceCreated(trx: Trx, workspaceId: string): Promise<void>;
  recordingPrepared(trx: Trx, recording: PreparedRecording): Promise<void>;
  transcriptReady(trx: Trx, run: ReadyTranscript): Promise<void>;
  /**
   * An analysis template whose questions name speakers was added: the scenario uploads are
   * transcribed with (the automatic one, else the oldest) gets these channel labels unless it
   * labels its channels already. Answers the labelled scenario's id, or null.
   */
  speakersNamed(workspaceId: string, labels: Record<string, string>): Promise<string | null>;
}
