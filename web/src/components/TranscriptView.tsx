// The transcript beside the player: what the call is about (its key phrases, a click plays the
// first mention), segments with their times under chapter headings where the subject changes (and
// speakers, for a call recorded on several channels, with their talk statistics), the word being
// heard lit; a click on a word,
// Enter on it, or a segment's time button seeks the audio there. The words are one tab stop:
// arrow keys move between them (← → a word, ↑ ↓ a segment, Home and End), as in a toolbar.
import { Anchor, Badge, Box, Group, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { Fragment, memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../api/client.ts';
import { followScroll, formatTime, wordAt } from '../lib/transcript-sync.ts';
import { spottedWords } from '../lib/spotted-words.ts';
import { formatDuration } from '../lib/durations.ts';
import './TranscriptView.css';
import { wholePercents } from '../lib/percent.ts';
import { signedScore } from '../lib/filters.ts';

type Transcript = Schemas['Transcript'];

/** A word: lit while heard; underlined where spotting heard a phrase over it (its name in the title). */
const Word = memo(function Word({ text, index, active, focusable, onSeek, start, spotted }: { text: string; index: number; active: boolean; focusable: boolean; onSeek: (t: number) => void; start: number; spotted: string | undefined }) {
  return (
    <span
      data-word={index}
      data-active={active || undefined}
      data-spotted-word={spotted}
      aria-current={active ? 'true' : undefined}
      title={spotted ? `Heard in the audio: “${spotted}”` : undefined}
      role="button"
      tabIndex={focusable ? 0 : -1}
      onClick={() => onSeek(start)}
      style={{ cursor: 'pointer', borderRadius: 3, padding: '0 1px', background: active ? '#ffe066' : undefined, ...(spotted ? { textDecoration: 'underline dotted var(--mantine-color-teal-8) 2px', textUnderlineOffset: 3 } : {}) }}
    >
      {text}
    </span>
  );
});

/** " · sentiment +0.40 (first third −0.30 → last third +0.50)": a speaker's mean sentiment, and how it moved from the start of the call to its end. */
function sentimentLine(s: Schemas['Transcript']['sentiment']['speakers'][number] | undefined): string {
  if (!s) return '';
  const moved = s.first_third !== null && s.last_third !== null ? ` (first third ${signedScore(s.first_third)} → last third ${signedScore(s.last_third)})` : '';
  return ` · sentiment ${signedScore(s.mean)}${moved}`;
}

/** "2 · billing address · 0:41–1:20", a button that plays the chapter. */
function ChapterHeading({ chapter, number, onSeek }: { chapter: Transcript['chapters'][number]; number: number; onSeek: (seconds: number) => void }) {
  return (
    <Anchor component="button" type="button" fw={600} size="sm" c="dark" ta="left" onClick={() => onSeek(chapter.start)} data-chapter={number} style={{ borderTop: '1px solid var(--mantine-color-gray-3)', paddingTop: 6 }}>
      Chapter {number} · {chapter.title} · {formatTime(chapter.start)}–{formatTime(chapter.end)}
    </Anchor>
  );
}

/** How long the transcript leaves alone a box its reader scrolled. */
const READER_SCROLL_MS = 4000;

/** Speakers still called by their channel (channel_0, channel_1): no scenario named them. */
const byChannelOnly = (speakers: readonly { speaker: string }[]) => speakers.length > 1 && speakers.every((s) => /^channel_\d+$/.test(s.speaker));

export function TranscriptView({ transcript, time, onSeek, speakersHref }: { transcript: Transcript; time: number; onSeek: (seconds: number) => void; speakersHref?: string }) {
  const words = transcript.words;
  const current = wordAt(words, time);
  // The box follows the word heard (a seek from search, an answer's evidence, playback), unless the
  // reader scrolled it in the last few seconds.
  const viewport = useRef<HTMLDivElement>(null);
  const readerScrolledAt = useRef(0);
  /** Where the box last scrolled itself to, until its scroll event comes. */
  const followedTo = useRef<number | null>(null);
  useEffect(() => {
    // Not for the first word (the box opens at the top), and measured in the next frame, so the
    // page's first layout is not forced early.
    if (current <= 0) return;
    const frame = requestAnimationFrame(() => {
      const box = viewport.current;
      const word = box?.querySelector<HTMLElement>(`[data-word="${current}"]`);
      if (!box || !word || Date.now() - readerScrolledAt.current < READER_SCROLL_MS) return;
      const to = followScroll(box.getBoundingClientRect(), word.getBoundingClientRect(), box.scrollTop);
      if (to === null) return;
      followedTo.current = to;
      box.scrollTo({ top: to });
    });
    return () => cancelAnimationFrame(frame);
  }, [current]);
  // Any scroll but the box's own following is its reader's: the wheel, a finger, the scrollbar
  // dragged, Page Down, moving between words with the keys.
  const onScroll = () => {
    const box = viewport.current;
    const ours = box !== null && followedTo.current !== null && Math.abs(box.scrollTop - followedTo.current) < 2;
    followedTo.current = null;
    if (!ours) readerScrolledAt.current = Date.now();
  };
  // The words under a phrase spotting heard in the audio (what the words may garble).
  const spotted = useMemo(() => spottedWords(words, transcript.spotted ?? []), [words, transcript.spotted]);
  // Each segment's words (its channel's, inside its times), found once.
  const segments = useMemo(() => {
    const byChannel = new Map<number, number[]>();
    words.forEach((w, index) => byChannel.set(w.channel, [...(byChannel.get(w.channel) ?? []), index]));
    const next = new Map<number, number>();
    return transcript.segments.map((segment) => {
      const own = byChannel.get(segment.channel) ?? [];
      let k = next.get(segment.channel) ?? 0;
      const indexes: number[] = [];
      while (k < own.length && words[own[k]!]!.start < segment.end - 0.001) indexes.push(own[k++]!);
      next.set(segment.channel, k);
      return { segment, indexes };
    });
  }, [transcript.segments, words]);
  // The word that holds the transcript's tab stop: the one last moved to, else the one heard.
  const [focused, setFocused] = useState<number | null>(null);
  const tabStop = focused ?? (current >= 0 ? current : 0);
  const segmentStarts = useMemo(() => segments.map((s) => s.indexes[0]).filter((i): i is number => i !== undefined).sort((a, b) => a - b), [segments]);
  const onWordKey = (event: KeyboardEvent<HTMLElement>) => {
    const from = Number((event.target as HTMLElement).dataset.word);
    if (!Number.isInteger(from) || words.length === 0) return;
    const nextSegment = segmentStarts.find((i) => i > from);
    const thisSegment = [...segmentStarts].reverse().find((i) => i <= from) ?? 0;
    const previousSegment = [...segmentStarts].reverse().find((i) => i < thisSegment);
    const targets: Record<string, number | undefined> = {
      ArrowRight: from + 1,
      ArrowLeft: from - 1,
      ArrowDown: nextSegment,
      ArrowUp: from > thisSegment ? thisSegment : previousSegment,
      Home: 0,
      End: words.length - 1,
    };
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onSeek(words[from]!.start);
      return;
    }
    if (!(event.key in targets)) return;
    event.preventDefault();
    let to = targets[event.key];
    // Words that write nothing (the rest of a number) are not shown: step over them.
    const step = event.key === 'ArrowLeft' || event.key === 'End' ? -1 : 1;
    while (to !== undefined && to >= 0 && to < words.length && words[to]!.punctuated_word === '') to += step;
    if (to === undefined || to < 0 || to >= words.length) return;
    setFocused(to);
    (event.currentTarget.querySelector(`[data-word="${to}"]`) as HTMLElement | null)?.focus();
  };
  const speakers = transcript.stats.speakers;
  // Whole percents that add up to 100 (talk ratios of 0.455 and 0.545 showed as 46 % and 55 %).
  const talkPercents = wholePercents(speakers.map((s) => s.talk_ratio));
  // Headings only where a call has several chapters, by the segment each starts at.
  const chapterAt = useMemo(() => {
    const chapters = transcript.chapters ?? [];
    return new Map(chapters.length > 1 ? chapters.map((chapter, i) => [chapter.first_segment, { chapter, number: i + 1 }] as const) : []);
  }, [transcript.chapters]);
  const topics = (transcript.key_phrases ?? []).slice(0, 8);
  const several = new Set(transcript.segments.map((s) => s.speaker)).size > 1;

  return (
    <Paper withBorder p="md" radius="md">
      {/* The summary, statistics and topics above; the turns alone scroll in their box (on a phone the
          statistics filled half of it). */}
      <Stack gap="sm" aria-label="Transcript" onKeyDown={onWordKey}>
        {transcript.summary && (
          <Box>
            <Text fw={600} size="sm">
              Summary
            </Text>
            <Text size="sm">{transcript.summary}</Text>
          </Box>
        )}
        {several && (
          <Group gap="lg" aria-label="Talk statistics">
            {speakers.map((s, i) => (
              <Text key={s.speaker} size="sm" data-speaker-stats={s.speaker}>
                <b>{s.speaker}</b> {talkPercents[i]} % of the talk · {Math.round(s.words_per_minute)} words/min · longest turn {formatDuration(s.longest_turn_seconds)}
                {sentimentLine(transcript.sentiment.speakers.find((x) => x.speaker === s.speaker))}
              </Text>
            ))}
            {speakersHref && byChannelOnly(speakers) && (
              <Text size="sm" c="dimmed" data-name-speakers>
                Speakers are called by their channel.{' '}
                <Anchor component={Link} to={speakersHref} size="sm">
                  Name them (agent, customer)
                </Anchor>{' '}
                in the transcription scenario: calls transcribed after that carry the names.
              </Text>
            )}
            <Text size="sm" c="dimmed">
              silence {formatDuration(transcript.stats.silence_seconds)} · overlap {formatDuration(transcript.stats.overlap_seconds)} · {transcript.stats.interruptions} interruptions
            </Text>
          </Group>
        )}
        {(transcript.spotted ?? []).length > 0 && (
          <Group gap="xs" aria-label="Heard in the audio">
            <Text size="sm" fw={600}>
              Heard in the audio:
            </Text>
            {transcript.spotted.map((spot, i) => (
              <Anchor key={i} component="button" type="button" size="sm" onClick={() => onSeek(spot.start)} data-spotted={spot.phrase}>
                “{spot.phrase}” {formatTime(spot.start)}
                {several ? ` (${spot.speaker})` : ''}
              </Anchor>
            ))}
          </Group>
        )}
        {topics.length > 0 && (
          <Group gap="xs" aria-label="Topics">
            <Text size="sm" fw={600}>
              Topics:
            </Text>
            {topics.map((topic) => (
              <Anchor key={topic.text} component="button" type="button" size="sm" onClick={() => onSeek(topic.timestamps[0]?.start ?? 0)} data-topic={topic.text} title={`Said ${topic.count} ${topic.count === 1 ? 'time' : 'times'}; play the first`}>
                {topic.text}
                {topic.count > 1 ? ` ×${topic.count}` : ''}
              </Anchor>
            ))}
          </Group>
        )}
        <ScrollArea.Autosize mah={520} type="auto" offsetScrollbars="y" viewportRef={viewport} viewportProps={{ onScroll }}>
          <Stack gap="sm">
            {segments.length === 0 && <Text c="dimmed">The transcript is empty: no speech was recognised.</Text>}
            {segments.map(({ segment, indexes }, i) => (
              <Fragment key={i}>
                {chapterAt.has(i) && <ChapterHeading chapter={chapterAt.get(i)!.chapter} number={chapterAt.get(i)!.number} onSeek={onSeek} />}
                {/* On a phone the time and the speaker head the words, which take the whole width (TranscriptView.css). */}
                <div className="hark-segment">
                  <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
                    <Anchor component="button" type="button" size="xs" ff="monospace" c="dimmed" onClick={() => onSeek(segment.start)} aria-label={`Play from ${formatTime(segment.start)}`} style={{ whiteSpace: 'nowrap' }}>
                      {formatTime(segment.start)}
                    </Anchor>
                    {several && (
                      // The speaker at the start of each turn, in a column of its own.
                      <div className="hark-segment-speaker">
                        {segments[i - 1]?.segment.speaker !== segment.speaker && (
                          <Badge variant="light" tt="none" color={segment.channel === 0 ? 'blue' : 'grape'} data-speaker={segment.speaker}>
                            {segment.speaker}
                          </Badge>
                        )}
                      </div>
                    )}
                  </Group>
                  <Text size="md" style={{ lineHeight: 1.7, minWidth: 0, overflowWrap: 'anywhere' }}>
                    {indexes.length > 0
                      ? // A number written over several words is carried by its first; the others write nothing.
                        indexes.filter((index) => words[index]!.punctuated_word !== '').map((index) => (
                          <span key={index}>
                            <Word text={words[index]!.punctuated_word ?? words[index]!.word} index={index} active={index === current} focusable={index === tabStop} onSeek={onSeek} start={words[index]!.start} spotted={spotted.get(index)} />{' '}
                          </span>
                        ))
                      : segment.text}
                  </Text>
                </div>
              </Fragment>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Stack>
    </Paper>
  );
}
