import type { z } from '@hono/zod-openapi';
import type { Database } from 'better-sqlite3';
import { callTranscriptJobId } from '../../domain/call.ts';
import { findCall } from '../../projections/calls.ts';
import { findTranscriptionJobDocument, type JobDocument } from '../../projections/transcription-jobs.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { resourceNotFound } from '../errors.ts';
import { idParams } from '../schemas/common.ts';
import { CallTranscriptSchema } from '../schemas/transcription.ts';

const getCallTranscript = defineRoute({
  method: 'get',
  path: '/calls/{id}/transcript',
  operationId: 'getCallTranscript',
  tags: ['Calls'],
  summary: 'Get the transcript and analysis of a call',
  description:
    'Every answered call is analysed automatically from the conversation recorded live. Until that is done the body is ' +
    '`{"status": "processing"}`. A call that was not answered (or failed) has no transcript: 404 with resource_type ' +
    '`call_transcript`.',
  request: { params: idParams('cal_01jd8k3m9q2x7c4v5b6n8p0r2t') },
  responses: { 200: { description: 'The call transcript, or `{"status": "processing"}`.', content: { 'application/json': { schema: CallTranscriptSchema } } } },
});

type CallTranscript = z.infer<typeof CallTranscriptSchema>;

/** The transcript of a call, from the calls and transcription-jobs read models. */
export function callTranscriptRoutes({ readDb }: { readDb: Database }) {
  const router = createRouter();

  router.openapi(getCallTranscript, (c) => {
    const { workspaceId } = principalOf(c);
    const { id } = c.req.valid('param');
    const call = findCall(readDb, workspaceId, id);
    if (!call) throw resourceNotFound('call', id);
    if (call.status === 'in_progress') return c.json({ status: 'processing' } as CallTranscript, 200);
    if (call.status === 'failed' || call.answered_at === null) {
      throw resourceNotFound('call_transcript', id, { reason: 'the call was not answered, so there is no conversation to transcribe' });
    }
    const jobId = call.transcript_job_id ?? callTranscriptJobId(id);
    const text = findTranscriptionJobDocument(readDb, workspaceId, jobId);
    const job = text === undefined ? undefined : (JSON.parse(text) as JobDocument);
    if (job === undefined || job.status === 'pending' || job.status === 'processing') return c.json({ status: 'processing' } as CallTranscript, 200);
    if (job.status === 'failed') return c.json({ call_id: id, job_id: jobId, status: 'failed', error: job.error } as CallTranscript, 200);
    const body = {
      call_id: id,
      job_id: jobId,
      status: 'completed',
      language: job.language,
      duration_seconds: call.duration_seconds,
      transcript: job.transcript,
      summary: job.summary,
      sentiment: job.sentiment ?? null,
    };
    return c.json(body as CallTranscript, 200);
  });

  return router;
}
