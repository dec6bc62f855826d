// Reads a multipart upload: the `file` part is streamed to a temp file of the blob store as it
// arrives; every other part is a text field. On any error nothing is left behind.
import type { FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import { AppError, invalid } from '../../errors.ts';
import { contentTypeFor, isAcceptedContentType, UNDECLARED_PART_TYPE } from '../../platform/media/sniff.ts';
import { receiveAudio, type ReceivedAudio } from './audio-intake.ts';
import { assertStorable } from '../../http/text-guard.ts';

export interface ParsedUpload {
  audio: ReceivedAudio;
  filename: string | undefined;
  contentType: string | null;
  fields: Record<string, string>;
  /** Every text part in order, repeated names included (`timestamp_granularities[]`). */
  entries: [string, string][];
}

const MULTIPART_OVERHEAD = 1024 * 1024;
/** What the form parser reads bytes that are not UTF-8 as. */
const REPLACED = '\uFFFD';
const NOT_UTF8 = 'must be UTF-8 text (it holds bytes that are not, or U+FFFD, the mark of a text already damaged)';

export interface UploadForm {
  /** The text fields the form takes (any when absent); another is a 400 naming it. */
  fields?: readonly string[];
  /** Whether a field may be sent more than once (as OpenAI's `timestamp_granularities[]`); else a 400. */
  repeats?: boolean;
}

export async function readUpload(ctx: Context, request: FastifyRequest, form: UploadForm = {}): Promise<ParsedUpload> {
  if (!request.isMultipart()) {
    throw new AppError('unsupported_media_type', 'send the audio as multipart/form-data with a "file" part');
  }
  const max = ctx.config.maxUploadBytes;
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > max + MULTIPART_OVERHEAD + ctx.config.maxMetadataBytes) {
    throw new AppError('payload_too_large', `the upload is larger than the limit of ${max} bytes`);
  }
  let audio: ReceivedAudio | undefined;
  let filename: string | undefined;
  let contentType: string | null = null;
  const fields: Record<string, string> = {};
  const entries: [string, string][] = [];
  try {
    for await (const part of request.parts({ limits: { fileSize: max + 1 } })) {
      if (typeof part.fieldname !== 'string' || part.fieldname === '') {
        if (part.type === 'file') part.file.resume();
        throw invalid('form', 'every form part needs a name (Content-Disposition: form-data; name="…")');
      }
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || audio) {
          part.file.resume();
          throw invalid(part.fieldname, audio ? 'only one file may be sent' : 'files are accepted only in the "file" field');
        }
        if (part.mimetype !== UNDECLARED_PART_TYPE && !isAcceptedContentType(part.mimetype)) {
          part.file.resume();
          throw new AppError('unsupported_media_type', `"${part.mimetype}" is not an accepted audio type`);
        }
        if (part.filename?.includes('\u0000')) {
          part.file.resume();
          throw invalid('file', 'the file name must not contain the NUL character');
        }
        if (part.filename?.includes(REPLACED)) {
          part.file.resume();
          throw invalid('file', NOT_UTF8);
        }
        audio = await receiveAudio(ctx.blobs, part.file, max);
        filename = part.filename;
        contentType = contentTypeFor(part.mimetype, audio.format);
      } else {
        // Bytes that are not UTF-8 were read as U+FFFD: refused, not kept changed.
        if (part.fieldname.includes(REPLACED)) throw invalid('form', `a field name ${NOT_UTF8}`);
        if (String(part.value).includes(REPLACED)) throw invalid(part.fieldname, NOT_UTF8);
        assertStorable(String(part.value), part.fieldname);
        assertStorable(part.fieldname, 'form');
        if (form.fields && !form.fields.includes(part.fieldname)) throw invalid(part.fieldname, `is not a field of this form (it takes file, ${form.fields.join(', ')})`);
        if (!form.repeats && Object.hasOwn(fields, part.fieldname)) throw invalid(part.fieldname, 'is sent more than once');
        fields[part.fieldname] = String(part.value);
        entries.push([part.fieldname, String(part.value)]);
      }
    }
    if (!audio) throw invalid('file', 'is required');
    return { audio, filename, contentType, fields, entries };
  } catch (error) {
    if (audio) await ctx.blobs.removeTemp(audio.tempPath);
    throw asClientError(error);
  }
}

/** busboy's complaints about a malformed or cut-off body are the client's, not the server's. */
function asClientError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') return invalid('file', 'only one file may be sent');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return invalid('form', 'too many form fields');
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('payload_too_large', 'the file is larger than the limit');
  if (code === 'FST_PROTO_VIOLATION') return invalid('form', 'a form field name is not allowed');
  const message = (error as Error).message ?? '';
  if (/boundary|part terminated|unexpected end|malformed|multipart/i.test(message)) return invalid('body', `the multipart body is malformed: ${message}`);
  return error;
}
