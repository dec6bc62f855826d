// The transcript beside the player: segments with their times, the word being heard lit; a click
// on a word, or a segment's time button (keyboard), seeks the audio there.
import { Anchor, Box, Group, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { memo, useMemo } from 'react';
import type { Schemas } from '../api/client.ts';
import { formatTime, indexAt } from '../lib/transcript-sync.ts';

type Transcript = Schemas['Transcript'];

const Word = memo(function Word({ text, index, active, onSeek, start }: { text: string; index: number; active: boolean; onSeek: (t: number) => void; start: number }) {
  return (
    // A click seeks; keyboard users seek by each segment's time button (a tab stop per word would
    // make a long transcript impossible to tab through).
    <span
      data-word={index}
      data-active={active || undefined}
      aria-current={active ? 'true' : undefined}
      onClick={() => onSeek(start)}
      style={{ cursor: 'pointer', borderRadius: 3, padding: '0 1px', background: active ? '#ffe066' : undefined }}
    >
      {text}
    </span>
  );
});

export function TranscriptView({ transcript, time, onSeek }: { transcript: Transcript; time: number; onSeek: (seconds: number) => void }) {
  const words = transcript.words;
  const current = indexAt(words, time);
  // Each segment's words, found once.
  const segments = useMemo(() => {
    let next = 0;
    return transcript.segments.map((segment) => {
      const from = next;
      while (next < words.length && words[next]!.start < segment.end - 0.001) next += 1;
      return { segment, from, to: next };
    });
  }, [transcript.segments, words]);

  return (
    <Paper withBorder p="md" radius="md">
      <ScrollArea.Autosize mah={520} type="auto">
        <Stack gap="sm" aria-label="Transcript">
          {transcript.summary && (
            <Box>
              <Text fw={600} size="sm">
                Summary
              </Text>
              <Text size="sm">{transcript.summary}</Text>
            </Box>
          )}
          {segments.length === 0 && <Text c="dimmed">The transcript is empty: no speech was recognised.</Text>}
          {segments.map(({ segment, from, to }, i) => (
            <Group key={i} align="flex-start" gap="sm" wrap="nowrap">
              <Anchor component="button" type="button" size="xs" ff="monospace" c="dimmed" onClick={() => onSeek(segment.start)} aria-label={`Play from ${formatTime(segment.start)}`} style={{ whiteSpace: 'nowrap' }}>
                {formatTime(segment.start)}
              </Anchor>
              <Text size="md" style={{ lineHeight: 1.7 }}>
                {to > from
                  ? words.slice(from, to).map((w, k) => (
                      <span key={from + k}>
                        <Word text={w.word} index={from + k} active={from + k === current} onSeek={onSeek} start={w.start} />{' '}
                      </span>
                    ))
                  : segment.text}
              </Text>
            </Group>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Paper>
  );
}
