// A recording's player (waveform, chapters and sentiment under it) beside its transcript: the word
// being heard lit, a click seeks; exports; Correct edits it into a new version.
import { Anchor, Button, Group, Text } from '@mantine/core';
import { forwardRef, memo, useState } from 'react';
import { workspacePath, type Schemas } from '../../api/client.ts';
import { AudioPlayer, type PlayerHandle } from '../AudioPlayer.tsx';
import { CallTimeline } from '../CallTimeline.tsx';
import { TranscriptEditor } from '../TranscriptEditor.tsx';
import { TranscriptView } from '../TranscriptView.tsx';

type Transcript = Schemas['Transcript'];

interface Props {
  workspaceId: string;
  recording: Schemas['Recording'];
  /** Whether the audio can be played (prepared, not deleted). */
  hasAudio: boolean;
  transcript: Transcript | undefined;
  /** A transcription run is under way (what to say while there is no transcript). */
  transcribing: boolean;
  writer: boolean;
  /** Where the player starts (a search hit's time). */
  startAt?: number;
  time: number;
  onTime: (seconds: number) => void;
  onSeek: (seconds: number) => void;
  onCorrected: (next: Transcript) => void;
  /** The transcription scenario where the transcript's speakers are named. */
  speakersHref: string;
}

export const TranscriptPanel = memo(
  forwardRef<PlayerHandle, Props>(function TranscriptPanel({ workspaceId, recording: r, hasAudio, transcript, transcribing, writer, startAt, time, onTime, onSeek, onCorrected, speakersHref }, player) {
  const [correcting, setCorrecting] = useState(false);
  const exportUrl = (format: string) => workspacePath(workspaceId, `/recordings/${r.id}/transcript?format=${format}`);
  const base = r.filename.replace(/\.[^.]*$/, '');
  return (
    <>
      {hasAudio && (
        <AudioPlayer
          ref={player}
          src={workspacePath(workspaceId, `/recordings/${r.id}/audio`)}
          waveformSrc={workspacePath(workspaceId, `/recordings/${r.id}/waveform`)}
          onTime={onTime}
          startAt={startAt}
          timeline={transcript ? (duration) => <CallTimeline transcript={transcript} duration={duration} onSeek={onSeek} /> : undefined}
        />
      )}
      {transcript ? (
        <>
          <Group gap="xs" justify="space-between">
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                Download:
              </Text>
              {['txt', 'srt', 'vtt'].map((format) => (
                <Anchor key={format} href={exportUrl(format)} download={`${base}.${format}`} size="sm">
                  {format.toUpperCase()}
                </Anchor>
              ))}
            </Group>
            <Group gap="xs">
              {transcript.version > 1 && (
                <Text size="xs" c="dimmed" data-version={transcript.version}>
                  Corrected · version {transcript.version}
                </Text>
              )}
              {writer && !correcting && (
                <Button size="compact-sm" variant="default" onClick={() => setCorrecting(true)}>
                  Correct
                </Button>
              )}
            </Group>
          </Group>
          {correcting ? (
            <TranscriptEditor
              workspaceId={workspaceId}
              transcript={transcript}
              onCancel={() => setCorrecting(false)}
              onSaved={(next) => {
                setCorrecting(false);
                onCorrected(next);
              }}
            />
          ) : (
            <TranscriptView transcript={transcript} time={time} onSeek={onSeek} speakersHref={speakersHref} />
          )}
        </>
      ) : (
        <Text c="dimmed">{transcribing ? 'Transcribing… the transcript appears here when it is done.' : 'No transcript yet.'}</Text>
      )}
    </>
  );
}),
);
