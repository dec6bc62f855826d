// Under the waveform, on the same time axis: the call's chapters (a click plays one) and each
// speaker's sentiment along the call, sentence by sentence (green pleased, red upset, grey
// neutral; stronger the further from 0; the sentence and its score on hover). A call of one
// unnamed channel has one lane, everyone's.
import { Box, Text, UnstyledButton } from '@mantine/core';
import type { Schemas } from '../api/client.ts';
import { formatTime } from '../lib/transcript-sync.ts';
import { sentimentColour } from '../lib/sentiment-colour.ts';

type Transcript = Schemas['Transcript'];

const at = (seconds: number, duration: number) => `${Math.min(100, Math.max(0, (seconds / duration) * 100))}%`;

export function CallTimeline({ transcript, duration, onSeek }: { transcript: Transcript; duration: number; onSeek: (seconds: number) => void }) {
  if (!(duration > 0)) return null;
  const chapters = transcript.chapters ?? [];
  const speakers = [...new Set(transcript.segments.map((s) => s.speaker))];
  const sentences = transcript.sentiment.sentences;
  return (
    <Box>
      {chapters.length > 1 && (
        <Box pos="relative" h={22} aria-label="Chapters" role="group">
          {chapters.map((chapter, i) => (
            <UnstyledButton
              key={i}
              onClick={() => onSeek(chapter.start)}
              data-timeline-chapter={i + 1}
              title={`Chapter ${i + 1}: ${chapter.title} (${formatTime(chapter.start)}–${formatTime(chapter.end)})`}
              aria-label={`Play chapter ${i + 1}, ${chapter.title}, from ${formatTime(chapter.start)}`}
              pos="absolute"
              top={0}
              h={20}
              px={4}
              style={{ left: at(chapter.start, duration), width: `calc(${at(chapter.end - chapter.start, duration)} - 2px)`, background: i % 2 === 0 ? 'var(--mantine-color-blue-1)' : 'var(--mantine-color-indigo-1)', borderRadius: 3, overflow: 'hidden' }}
            >
              <Text size="xs" truncate>
                {chapter.title}
              </Text>
            </UnstyledButton>
          ))}
        </Box>
      )}
      {sentences.length > 0 && (
        <>
          {speakers.map((speaker) => (
            // Full width, so that a segment sits under its own sound.
            <Box key={speaker} pos="relative" h={6} mt={2} style={{ background: 'var(--mantine-color-gray-1)', borderRadius: 2 }} aria-label={`Sentiment of ${speaker} along the call`} role="img" data-sentiment-lane={speaker}>
              {sentences.map((sentence, i) =>
                // Plain elements: a long call has hundreds of sentences.
                sentence.speaker === speaker ? (
                  <div
                    key={i}
                    title={`${speaker} ${formatTime(sentence.start)}: “${sentence.text}” ${sentence.score.toFixed(2)}`}
                    data-sentence-score={sentence.score}
                    style={{ position: 'absolute', top: 0, height: 6, left: at(sentence.start, duration), width: at(Math.max(sentence.end - sentence.start, duration / 400), duration), background: sentimentColour(sentence.score) }}
                  />
                ) : null,
              )}
            </Box>
          ))}
          <Text size="xs" c="dimmed" mt={2}>
            {speakers.length > 1 ? `Sentiment, lane by lane: ${speakers.join(' · ')}` : `Sentiment along the call${/^channel_\d+$/.test(speakers[0] ?? '') ? ', everyone on one channel' : `: ${speakers[0] ?? ''}`}`} (green pleased, red upset)
          </Text>
        </>
      )}
    </Box>
  );
}
