// Recognises the accepted audio containers by their first bytes, and the accepted declared types.
export const audioFormats = ['wav', 'mp3', 'mp4', 'ogg', 'flac'] as const;
export type AudioFormat = (typeof audioFormats)[number];

/** The declared types each container answers to; the first is the one a card names it by. */
const typesOf: Record<AudioFormat, readonly string[]> = {
  wav: ['audio/wav', 'audio/wave', 'audio/x-wav', 'audio/vnd.wave'],
  mp3: ['audio/mpeg', 'audio/mp3'],
  mp4: ['audio/mp4', 'audio/x-m4a', 'audio/m4a', 'audio/aac', 'video/mp4'],
  ogg: ['audio/ogg', 'audio/opus', 'application/ogg'],
  flac: ['audio/flac', 'audio/x-flac'],
};

/** Declared MIME types accepted on upload: every container's (the specification's, FLAC's and common aliases), and octet-stream. */
export const acceptedContentTypes = new Set([...Object.values(typesOf).flat(), 'application/octet-stream']);

/**
 * What multipart parsers (busboy) report for a file part that declares no type: such a part is
 * taken as undeclared, its content probed (Python's `requests` sends a file so by default).
 */
export const UNDECLARED_PART_TYPE = 'text/plain';

const bare = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

export function isAcceptedContentType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  return acceptedContentTypes.has(bare(contentType));
}

/**
 * The type a recording's card gives: the declared one where it names the container the content
 * is, else (none declared, `application/octet-stream`, or another container's type) the content's.
 */
export function contentTypeFor(declared: string | null | undefined, format: AudioFormat): string {
  const type = declared ? bare(declared) : '';
  return typesOf[format].includes(type) ? type : typesOf[format][0]!;
}

export const SNIFF_BYTES = 64;

export function sniffFormat(head: Buffer): AudioFormat | null {
  const ascii = (start: number, end: number) => head.subarray(start, end).toString('latin1');
  if (head.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (head.length >= 12 && ascii(0, 4) === 'RF64' && ascii(8, 12) === 'WAVE') return 'wav';
  if (head.length >= 4 && ascii(0, 4) === 'fLaC') return 'flac';
  if (head.length >= 4 && ascii(0, 4) === 'OggS') return 'ogg';
  if (head.length >= 8 && ascii(4, 8) === 'ftyp') return 'mp4';
  if (head.length >= 3 && ascii(0, 3) === 'ID3') return 'mp3';
  // An MPEG audio frame header: 11 sync bits, a valid version, layer III/II, bitrate not "bad".
  const [b0, b1, b2] = [head[0], head[1], head[2]];
  if (b0 === 0xff && b1 !== undefined && b2 !== undefined && (b1 & 0xe0) === 0xe0 && (b1 & 0x06) !== 0 && (b2 & 0xf0) !== 0xf0) {
    return 'mp3';
  }
  return null;
}
