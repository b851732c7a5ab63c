import { z } from '@hono/zod-openapi';
import { Readable } from 'node:stream';
import type { Database } from 'better-sqlite3';
import type { RecordingLinks } from '../../infra/blobs/recording-links.ts';
import type { BlobStore } from '../../infra/blobs/port.ts';
import { findCallRecordingKey } from '../../projections/calls.ts';
import { parseByteRange } from '../byte-range.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { ApiError, errorBody, resourceNotFound } from '../errors.ts';
import { errorResponse } from '../contract/error-responses.ts';

const getRecording = defineRoute(
  {
    method: 'get',
    path: '/recordings/{call_id}',
    operationId: 'getRecording',
    tags: ['Calls'],
    summary: 'Download a call recording (signed URL)',
    description:
      'The `recording_url` of a call: no API key, the signature in the query string is the credential, valid one ' +
      'hour from when the URL was handed out. A stereo 16 kHz WAV, agent on the left channel, customer on the right. ' +
      'Supports a single `Range` (206 Partial Content).',
    request: {
      params: z.object({ call_id: z.string().min(1).max(100).openapi({ param: { name: 'call_id', in: 'path' }, example: 'cal_01jd8k3m9q2x7c4v5b6n8p0r2t' }) }),
      // Optional in the schema: a missing or malformed signature is a 403 like a wrong one, not a 400.
      query: z.object({
        expires: z.string().optional().openapi({ description: 'Unix seconds after which the URL stops working.' }),
        signature: z.string().optional().openapi({ description: 'HMAC-SHA256 of the path and expiry.' }),
      }),
    },
    responses: {
      200: { description: 'The WAV.', content: { 'audio/wav': { schema: z.string().openapi({ format: 'binary' }) } } },
      206: { description: 'The requested byte range.', content: { 'audio/wav': { schema: z.string().openapi({ format: 'binary' }) } } },
      403: errorResponse('forbidden: the signature is missing or wrong (`reason: invalid_signature`), or the URL expired (`reason: expired`).'),
      404: errorResponse('resource_not_found: the call has no stored recording.'),
      416: errorResponse('range_not_satisfiable: the Range starts past the end of the recording.'),
    },
  },
  { public: true },
);

export function recordingRoutes({ readDb, blobs, recordingLinks }: { readDb: Database; blobs: BlobStore; recordingLinks: RecordingLinks }) {
  const router = createRouter();

  router.openapi(getRecording, async (c) => {
    const { call_id: callId } = c.req.valid('param');
    const { expires, signature } = c.req.valid('query');
    const verdict = recordingLinks.verify(callId, expires, signature);
    if (verdict === 'invalid') throw new ApiError('forbidden', 'The recording URL is not valid: its signature does not match.', { reason: 'invalid_signature' });
    if (verdict === 'expired') throw new ApiError('forbidden', 'The recording URL has expired; get a fresh one from GET /v1/calls/{id}.', { reason: 'expired' });

    const blobKey = findCallRecordingKey(readDb, callId);
    const size = blobKey === null ? null : await blobs.size(blobKey);
    if (blobKey === null || size === null) throw resourceNotFound('recording', callId);

    const headers: Record<string, string> = {
      'Content-Type': 'audio/wav',
      'Accept-Ranges': 'bytes',
      // Whoever holds the URL may fetch it, but shared caches must not keep a copy past the signature's life.
      'Cache-Control': 'private, max-age=3600',
      'Content-Disposition': `inline; filename="${callId}.wav"`,
    };
    const range = parseByteRange(c.req.header('range'), size);
    if (range === 'unsatisfiable') {
      return c.json(
        errorBody('range_not_satisfiable', `The range starts past the end of the ${size}-byte recording.`, { field: 'Range', provided: c.req.header('range') ?? null, expected: `bytes within 0-${size - 1}` }),
        416,
        { 'Content-Range': `bytes */${size}` },
      );
    }
    const span = range ?? { start: 0, end: size - 1 };
    headers['Content-Length'] = String(span.end - span.start + 1);
    if (range) headers['Content-Range'] = `bytes ${span.start}-${span.end}/${size}`;
    // No file is opened for HEAD (Hono drops a GET handler's body for HEAD without closing its stream) or for an
    // empty file (a stream of bytes 0 to -1 would fail).
    const content = size === 0 || c.req.method === 'HEAD' ? '' : (Readable.toWeb(blobs.read(blobKey, span)) as ReadableStream<Uint8Array>);
    return c.body(content, range ? 206 : 200, headers);
  });

  return router;
}
