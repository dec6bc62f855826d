// The recording's audio with its waveform (wavesurfer.js). The audio element streams the file
// with HTTP Range; the waveform is drawn from the prepared WAV. The parent seeks through `seekTo`.
import { ActionIcon, Group, Paper, Text } from '@mantine/core';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { formatTime } from '../lib/transcript-sync.ts';

export interface PlayerHandle {
  seekTo(seconds: number, play?: boolean): void;
}

interface Props {
  src: string;
  peaksSrc: string;
  onTime: (seconds: number) => void;
  /** Where the player stands when the audio is ready (a search hit's time). */
  startAt?: number | undefined;
}

export const AudioPlayer = forwardRef<PlayerHandle, Props>(function AudioPlayer({ src, peaksSrc, onTime, startAt }, ref) {
  const container = useRef<HTMLDivElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const surfer = useRef<WaveSurfer | null>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);

  useEffect(() => {
    if (!container.current || !audio.current) return;
    const ws = WaveSurfer.create({
      container: container.current,
      media: audio.current,
      url: peaksSrc,
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
        setDuration(d);
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
  }, [src, peaksSrc, onTime, startAt]);

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

  return (
    <Paper withBorder p="sm" radius="md">
      <audio ref={audio} src={src} preload="metadata" data-testid="audio" />
      <Group wrap="nowrap" align="center" gap="sm">
        <ActionIcon size="xl" radius="xl" onClick={toggle} aria-label={playing ? 'Pause' : 'Play'} data-testid="play">
          {playing ? '❚❚' : '▶'}
        </ActionIcon>
        <div ref={container} style={{ flex: 1, minWidth: 0 }} aria-label="Waveform: click to seek" role="slider" aria-valuemin={0} aria-valuemax={Math.round(duration)} aria-valuenow={Math.round(time)} tabIndex={0}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight') surfer.current?.setTime(Math.min(duration, time + 5));
            if (e.key === 'ArrowLeft') surfer.current?.setTime(Math.max(0, time - 5));
          }}
        />
        <Text size="sm" c="dimmed" ff="monospace" data-testid="player-time" style={{ whiteSpace: 'nowrap' }}>
          {formatTime(time)} / {formatTime(duration)}
        </Text>
      </Group>
    </Paper>
  );
});
