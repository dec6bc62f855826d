// The recording's audio with its waveform (wavesurfer.js). The audio element streams the file
// with HTTP Range; the waveform is drawn from the levels the API computes (a few KB, whatever the
// call's length). The parent seeks through `seekTo`.
// A reviewer skips 5 s either way and plays at 0.5× to 3×, by buttons or by keys anywhere on the
// page outside a text field (SHORTCUTS). Under the waveform, the parent may draw on its time axis.
import './AudioPlayer.css';
import { ActionIcon, Box, Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState, type ReactNode } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { formatTime } from '../lib/transcript-sync.ts';
import { fetchEarlyFirst } from '../api/early.ts';

export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3];
const SKIP_SECONDS = 5;
export const SHORTCUTS = 'Keys: Space or K play/pause · J or ← back 5 s · L or → ahead 5 s · − and + speed';

/** Keys typed into a field, or pressed on a control that has its own use for them, are not shortcuts. */
function ownsKeys(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('input, textarea, select, [contenteditable="true"], [role="combobox"], [role="listbox"]')) return true;
  return key === ' ' && target.closest('button, a, [role="button"], [role="tab"]') !== null;
}

export interface PlayerHandle {
  seekTo(seconds: number, play?: boolean): void;
}

interface Props {
  src: string;
  /** The recording's waveform (GET …/waveform). */
  waveformSrc: string;
  onTime: (seconds: number) => void;
  /** Where the player stands when the audio is ready (a search hit's time). */
  startAt?: number | undefined;
  /** Drawn under the waveform, on its time axis (chapters, sentiment). */
  timeline?: ((duration: number) => ReactNode) | undefined;
}

export const AudioPlayer = forwardRef<PlayerHandle, Props>(function AudioPlayer({ src, waveformSrc, onTime, startAt, timeline }, ref) {
  const container = useRef<HTMLDivElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const surfer = useRef<WaveSurfer | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [speed, setSpeed] = useState(1);

  const [waveform, setWaveform] = useState<{ duration_seconds: number; peaks: number[] } | null>(null);
  useEffect(() => {
    let current = true;
    fetchEarlyFirst(new Request(waveformSrc, { credentials: 'same-origin' }))
      .then((response) => (response.ok ? response.json() : null))
      .then((body: { duration_seconds: number; peaks: number[] } | null) => current && setWaveform(body ?? { duration_seconds: 0, peaks: [] }))
      .catch(() => current && setWaveform({ duration_seconds: 0, peaks: [] }));
    return () => {
      current = false;
    };
  }, [waveformSrc]);

  useEffect(() => {
    if (!container.current || !audio.current || !waveform) return;
    const ws = WaveSurfer.create({
      container: container.current,
      media: audio.current,
      // Without levels (a waveform that could not be read) the bar stays flat; playback works.
      peaks: [waveform.peaks.length > 0 ? waveform.peaks : [0]],
      duration: waveform.duration_seconds || undefined,
      height: 72,
      waveColor: '#a5d8ff',
      progressColor: '#1c7ed6',
      cursorColor: '#1864ab',
      barWidth: 2,
      barGap: 1,
      normalize: true,
    });
    surfer.current = ws;
    const unsubscribe = [
      ws.on('timeupdate', (t) => {
        setTime(t);
        onTime(t);
      }),
      ws.on('play', () => setPlaying(true)),
      ws.on('pause', () => setPlaying(false)),
      ws.on('ready', (d) => {
        setDuration(d || waveform.duration_seconds);
        if (startAt !== undefined && startAt > 0 && startAt < d && audio.current) {
          audio.current.currentTime = startAt;
          setTime(startAt);
          onTime(startAt);
        }
      }),
    ];
    return () => {
      unsubscribe.forEach((off) => off());
      ws.destroy();
      surfer.current = null;
    };
  }, [src, waveform, onTime, startAt]);

  useImperativeHandle(ref, () => ({
    seekTo(seconds, play = true) {
      const element = audio.current;
      if (!element) return;
      element.currentTime = seconds;
      setTime(seconds);
      onTime(seconds);
      if (play) void element.play().catch(() => {});
    },
  }));

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => {});
    else element.pause();
  };
  const skip = (by: number) => {
    const element = audio.current;
    if (!element) return;
    const to = Math.min(Math.max(0, element.currentTime + by), Number.isFinite(element.duration) ? element.duration : Infinity);
    element.currentTime = to;
    setTime(to);
    onTime(to);
  };
  const changeSpeed = (next: number) => {
    setSpeed(next);
    if (!audio.current) return;
    audio.current.defaultPlaybackRate = next;
    audio.current.playbackRate = next;
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || ownsKeys(event.target, event.key)) return;
      const step = (by: number) => changeSpeed(SPEEDS[Math.min(SPEEDS.length - 1, Math.max(0, SPEEDS.indexOf(speed) + by))] ?? 1);
      const actions: Record<string, () => void> = {
        ' ': toggle,
        k: toggle,
        j: () => skip(-SKIP_SECONDS),
        ArrowLeft: () => skip(-SKIP_SECONDS),
        l: () => skip(SKIP_SECONDS),
        ArrowRight: () => skip(SKIP_SECONDS),
        '-': () => step(-1),
        '+': () => step(1),
        '=': () => step(1),
      };
      const action = actions[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <Paper withBorder p="sm" radius="md" className="hark-player" data-player>
      {/* Nothing is fetched until the audio plays or seeks when the waveform's levels give its length; without them, its header is read for it (once the waveform has answered). */}
      <audio ref={audio} src={src} preload={waveform && waveform.duration_seconds === 0 ? 'metadata' : 'none'} data-testid="audio" />
      <Stack gap={6}>
        {/* On a phone the time goes under the waveform, which keeps the row's width. */}
        <Group wrap="wrap" align="center" gap="sm" style={{ rowGap: 2 }}>
          <ActionIcon size="xl" radius="xl" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'} data-testid="play">
            {playing ? '❚❚' : '▶'}
          </ActionIcon>
          {/* The waveform's keys (← →) are the page's shortcuts. */}
          <Box style={{ flex: '1 1 240px', minWidth: 0 }}>
            <div ref={container} aria-label="Waveform: click to seek" role="slider" aria-valuemin={0} aria-valuemax={Math.round(duration)} aria-valuenow={Math.round(time)} aria-valuetext={`${formatTime(time)} of ${formatTime(duration)}`} tabIndex={0} />
            {timeline?.(duration || waveform?.duration_seconds || 0)}
          </Box>
          <Text size="sm" c="dimmed" ff="monospace" data-testid="player-time" style={{ whiteSpace: 'nowrap' }}>
            {formatTime(time)} / {formatTime(duration)}
          </Text>
        </Group>
        <Group gap="xs" wrap="wrap">
          <Button variant="default" size="compact-sm" onClick={() => skip(-SKIP_SECONDS)}>
            Back 5 s
          </Button>
          <Button variant="default" size="compact-sm" onClick={() => skip(SKIP_SECONDS)}>
            Ahead 5 s
          </Button>
          <NativeSelect size="xs" w={80} aria-label="Playback speed" value={String(speed)} onChange={(e) => changeSpeed(Number(e.currentTarget.value))} data={SPEEDS.map((s) => ({ value: String(s), label: `${s}×` }))} />
          <Text size="xs" c="dimmed" className="hark-keyboard-hint">
            {SHORTCUTS}
          </Text>
        </Group>
      </Stack>
    </Paper>
  );
});
