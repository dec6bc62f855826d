// What each segment of a transcript means: its sentence embedding, made once (when a rule first
// needs it) and kept with the transcript. Kept small: each vector as one scale and a signed byte
// per number (512 bytes and 4 for a 512-number vector, where JSON would take about 5 KB), which
// moves a cosine similarity by less than 0.01.
import type { Db, Trx } from '../../platform/db/database.ts';

/** Each vector as its largest magnitude (float32) and its numbers over it, in signed bytes; base64. */
export function packVectors(vectors: readonly (readonly number[])[]): string {
  const dims = vectors[0]?.length ?? 0;
  const bytes = Buffer.alloc(4 + vectors.length * (4 + dims));
  bytes.writeUInt32LE(dims, 0);
  vectors.forEach((vector, v) => {
    if (vector.length !== dims) throw new Error('vectors of different lengths');
    const at = 4 + v * (4 + dims);
    const scale = Math.max(...vector.map(Math.abs)) || 1;
    bytes.writeFloatLE(scale, at);
    vector.forEach((x, i) => bytes.writeInt8(Math.round((x / scale) * 127), at + 4 + i));
  });
  return bytes.toString('base64');
}

export function unpackVectors(packed: string): number[][] {
  const bytes = Buffer.from(packed, 'base64');
  if (bytes.length < 4) return [];
  const dims = bytes.readUInt32LE(0);
  const vectors: number[][] = [];
  for (let at = 4; dims > 0 && at + 4 + dims <= bytes.length; at += 4 + dims) {
    const scale = bytes.readFloatLE(at);
    vectors.push(Array.from({ length: dims }, (_, i) => (bytes.readInt8(at + 4 + i) / 127) * scale));
  }
  return vectors;
}

/**
 * The vectors of a transcript's segments: those kept with it, else made by `embed` (one per
 * segment, an empty segment's from its empty text) and kept. Only this reads the stored vectors:
 * other transcript reads leave them out.
 */
export async function segmentVectors(db: Db | Trx, transcript: { id: string }, segments: readonly { text: string }[], embed: (texts: string[]) => Promise<number[][]>): Promise<number[][]> {
  const stored = await db.selectFrom('transcripts').select('segment_vectors').where('id', '=', transcript.id).executeTakeFirst();
  if (stored?.segment_vectors) {
    const kept = unpackVectors(stored.segment_vectors);
    if (kept.length === segments.length) return kept;
  }
  const vectors = await embed(segments.map((s) => s.text));
  await db.updateTable('transcripts').set({ segment_vectors: packVectors(vectors) }).where('id', '=', transcript.id).execute();
  return vectors;
}
