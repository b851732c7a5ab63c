import type { z } from '@hono/zod-openapi';
import type { Runtime } from '../../composition.ts';
import { callDecider, callStream } from '../../domain/call.ts';
import { callTranscriptJobId } from '../../processes/analysis/call-transcription.ts';
import { findTranscriptionJobDocument, type JobDocument } from '../../projections/transcription-jobs.ts';
import { principalOf } from '../context.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { resourceNotFound } from '../errors.ts';
import { idParams } from '../schemas/common.ts';
import { CallTranscriptSchema } from '../schemas/transcription.ts';

const getCallTranscript = defineRoute({
  method: 'get',
  path: '/calls/{id}/transcript',
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

export function callTranscriptRoutes(runtime: Runtime) {
  const router = createRouter();

  router.openapi(getCallTranscript, async (c) => {
    const { workspaceId } = principalOf(c);
    const { id } = c.req.valid('param');
    // The call's own stream decides (it exists before any read model has seen it, and is the source of truth).
    const { state } = await runtime.commands.load(callDecider, callStream(id));
    if (state.placed === null || state.placed.workspace_id !== workspaceId) throw resourceNotFound('call', id);
    if (state.status === 'in_progress') return c.json({ status: 'processing' } as CallTranscript, 200);
    if (state.status === 'failed' || state.answered_at === null) {
      throw resourceNotFound('call_transcript', id, { reason: 'the call was not answered, so there is no conversation to transcribe' });
    }
    const jobId = state.transcript_job_id ?? callTranscriptJobId(id);
    const text = findTranscriptionJobDocument(runtime.readDb, workspaceId, jobId);
    const job = text === undefined ? undefined : (JSON.parse(text) as JobDocument);
    if (job === undefined || job.status === 'pending' || job.status === 'processing') return c.json({ status: 'processing' } as CallTranscript, 200);
    if (job.status === 'failed') return c.json({ call_id: id, job_id: jobId, status: 'failed', error: job.error } as CallTranscript, 200);
    const body = {
      call_id: id,
      job_id: jobId,
      status: 'completed',
      language: job.language,
      duration_seconds: state.duration_seconds,
      transcript: job.transcript,
      summary: job.summary,
      sentiment: job.sentiment ?? null,
    };
    return c.json(body as CallTranscript, 200);
  });

  return router;
}
