// Silences time spans of a 16-bit PCM WAV by zeroing its samples, streamed a chunk at a time: exact
// to the sample, and linear in the file's length whatever the number of spans.
import fs from 'node:fs/promises';

interface PcmLayout {
  dataOffset: number;
  dataBytes: number;
  /** Bytes per second of audio (all channels). */
  byteRate: number;
  /** Bytes per sample frame (all channels). */
  blockAlign: number;
}

async function layout(handle: fs.FileHandle): Promise<PcmLayout> {
  const head = Buffer.alloc(65_536);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  if (bytesRead < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let offset = 12;
  let format: { byteRate: number; blockAlign: number; bits: number; codec: number } | null = null;
  while (offset + 8 <= bytesRead) {
    const id = head.toString('latin1', offset, offset + 4);
    const length = head.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      format = { codec: head.readUInt16LE(offset + 8), byteRate: head.readUInt32LE(offset + 16), blockAlign: head.readUInt16LE(offset + 20), bits: head.readUInt16LE(offset + 22) };
    } else if (id === 'data') {
      if (!format || format.codec !== 1 || format.bits !== 16) throw new Error('not 16-bit PCM');
      const { size } = await handle.stat();
      return { dataOffset: offset + 8, dataBytes: Math.min(length === 0 || length === 0xffffffff ? Infinity : length, size - offset - 8), byteRate: format.byteRate, blockAlign: format.blockAlign };
    }
    offset += 8 + length + (length % 2);
  }
  throw new Error('no data chunk in the first 64 KiB');
}

/** Merged, sorted spans in seconds. */
export function mergeSpans(spans: readonly { start: number; end: number }[]): [number, number][] {
  const sorted = spans.map((s): [number, number] => [Math.max(0, s.start), Math.max(0, s.end)]).filter(([s, e]) => e > s).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/**
 * Writes `input` to `output` with each span (widened by `padSeconds` on both sides) silenced.
 */
export async function silenceSpans(input: string, output: string, spans: readonly { start: number; end: number }[], padSeconds = 0.05): Promise<void> {
  const source = await fs.open(input, 'r');
  const target = await fs.open(output, 'w');
  try {
    const pcm = await layout(source);
    const toByte = (seconds: number) => pcm.dataOffset + Math.min(pcm.dataBytes, Math.floor((seconds * pcm.byteRate) / pcm.blockAlign) * pcm.blockAlign);
    const ranges = mergeSpans(spans.map((s) => ({ start: s.start - padSeconds, end: s.end + padSeconds }))).map(([s, e]) => [toByte(s), toByte(e)] as const);
    const end = pcm.dataOffset + pcm.dataBytes;
    const chunk = Buffer.alloc(1 << 20);
    let next = 0;
    for (let position = 0; position < end; ) {
      const { bytesRead } = await source.read(chunk, 0, Math.min(chunk.length, end - position), position);
      if (bytesRead === 0) break;
      const stop = position + bytesRead;
      while (next < ranges.length && (ranges[next]?.[1] ?? 0) <= position) next++;
      for (let r = next; r < ranges.length; r++) {
        const [from, to] = ranges[r] as readonly [number, number];
        if (from >= stop) break;
        chunk.fill(0, Math.max(from, position) - position, Math.min(to, stop) - position);
      }
      await target.write(chunk, 0, bytesRead, position);
      position = stop;
    }
  } finally {
    await source.close();
    await target.close();
  }
}
