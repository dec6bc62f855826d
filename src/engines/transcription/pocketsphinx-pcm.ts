// The samples of a prepared WAV file, read a chunk at a time from disk: decoding a file of any
// length holds one chunk of it in memory, not the file.
import fs from 'node:fs';
import { EngineError } from '../engine-error.ts';
import type { PcmSource } from './pocketsphinx-native.ts';

export interface PcmFile extends PcmSource {
  close(): void;
}

/** Opens a WAV file and finds its data chunk (RIFF or RF64 from ffmpeg: 16-bit mono). */
export function openPcmFile(file: string): PcmFile {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const header = Buffer.alloc(Math.min(size, 64 * 1024));
    fs.readSync(fd, header, 0, header.length, 0);
    let offset = 12;
    while (offset + 8 <= header.length) {
      const id = header.toString('latin1', offset, offset + 4);
      const length = header.readUInt32LE(offset + 4);
      if (id === 'data') {
        const start = offset + 8;
        // A data chunk of unknown or 4 GiB+ length (RF64, streaming) runs to the end of the file.
        const bytes = length === 0xffffffff || start + length > size ? size - start : length;
        const samples = Math.floor(bytes / 2);
        return {
          samples,
          read(from, count) {
            const chunk = Buffer.alloc(count * 2);
            const got = fs.readSync(fd, chunk, 0, chunk.length, start + from * 2);
            return got === chunk.length ? chunk : chunk.subarray(0, got - (got % 2));
          },
          close: () => fs.closeSync(fd),
        };
      }
      offset += 8 + length + (length % 2);
    }
    throw new EngineError('invalid_audio', 'the prepared audio has no data chunk', false);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}
