import type { z } from '@hono/zod-openapi';
import { transcriptionJobDecider, transcriptionJobStream } from '../../domain/transcription-job.ts';
import { findQaScorecard } from '../../projections/qa-scorecards.ts';
import { findTranscriptionJobDocument, listTranscriptionJobs } from '../../projections/transcription-jobs.ts';
import { principalOf } from '../context.ts';
import { checkOutboundTarget } from '../outbound-target-check.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { resourceNotFound } from '../errors.ts';
import { prebuiltJson, prebuiltListJson } from '../list.ts';
import {
  JobIdParams,
  TranscriptionAcceptedSchema,
  TranscriptionBody,
  TranscriptionJobListSchema,
  TranscriptionJobSchema,
  TranscriptionListQuery,
} from '../schemas/transcription.ts';
import type { ResourcePorts } from '../ports.ts';
import { resourceId } from '../resource-id.ts';
import { createOnce } from '../../commands/create-once.ts';

const TAG = 'Transcription';

const submitJob = defineRoute({
  method: 'post',
  path: '/transcription',
  operationId: 'createTranscriptionJob',
  tags: [TAG],
  summary: 'Submit a recording (or a transcript) for analysis',
  description:
    'Returns at once with a `pending` job; poll GET /v1/transcription/{job_id} or subscribe to `transcription.completed` / ' +
    '`transcription.failed`. A failed job carries `error: {code, message}` (codes in docs/analysis.md).',
  request: { body: { content: { 'application/json': { schema: TranscriptionBody } }, required: true } },
  responses: { 202: { description: 'Accepted.', content: { 'application/json': { schema: TranscriptionAcceptedSchema } } } },
}, { references: 'resource_not_found: `qa_scorecard_id` names no QA scorecard of this workspace.' });

const getJob = defineRoute({
  method: 'get',
  path: '/transcription/{job_id}',
  operationId: 'getTranscriptionJob',
  tags: [TAG],
  summary: 'Get a transcription job',
  description: 'The transcript and the requested analyses once `completed`; `error` once `failed`.',
  request: { params: JobIdParams },
  responses: { 200: { description: 'The job as it stands.', content: { 'application/json': { schema: TranscriptionJobSchema } } } },
});

const listJobs = defineRoute({
  method: 'get',
  path: '/transcription',
  operationId: 'listTranscriptionJobs',
  tags: [TAG],
  summary: 'List transcription jobs',
  description: 'Newest first, without transcripts (GET /v1/transcription/{job_id} has them). Automatic call transcripts are included.',
  request: { query: TranscriptionListQuery },
  responses: { 200: { description: 'A page of jobs.', content: { 'application/json': { schema: TranscriptionJobListSchema } } } },
});

export function transcriptionRoutes({ commands, clock, readDb, readYourWrites, allowPrivateTargets }: ResourcePorts & { allowPrivateTargets: boolean }) {
  const router = createRouter();

  router.openapi(submitJob, async (c) => {
    const { workspaceId, keyId } = principalOf(c);
    const body = c.req.valid('json');
    if (body.audio_url !== undefined) {
      // A host that does not resolve yet may by the time the job runs (else the job fails with audio_unreachable).
      await checkOutboundTarget(body.audio_url, {
        field: 'audio_url',
        expected: 'an http(s) URL without credentials',
        protocols: ['http:', 'https:'],
        allowPrivateTargets: allowPrivateTargets,
        acceptUnresolvable: true,
      });
    }
    // The job pins the scorecard as it is now: later edits or a deletion do not change what it is scored against.
    let pinned = null;
    if (body.features.includes('qa_scoring') && body.qa_scorecard_id !== undefined) {
      const scorecard = findQaScorecard(readDb, workspaceId, body.qa_scorecard_id);
      if (scorecard === undefined) throw resourceNotFound('qa_scorecard', body.qa_scorecard_id);
      pinned = { scorecard_id: body.qa_scorecard_id, version: scorecard.version, definition: scorecard.definition };
    }
    const now = clock.now();
    const jobId = resourceId(c, 'job', now);
    const result = await createOnce(
      commands,
      transcriptionJobDecider,
      transcriptionJobStream(jobId),
      {
        type: 'SubmitTranscriptionJob',
        data: {
          job_id: jobId,
          workspace_id: workspaceId,
          audio_url: body.audio_url ?? null,
          transcript: body.transcript ?? null,
          language: body.language,
          speakers: body.speakers,
          features: body.features,
          qa_scorecard_id: body.qa_scorecard_id ?? null,
          qa_scorecard: pinned,
          metadata: body.metadata ?? null,
          call_id: null,
          disposition: null,
          submitted_at: now.toISOString(),
        },
      },
      { workspaceId, actor: keyId, now },
    );
    await readYourWrites(result.position);
    return c.json({ job_id: jobId, status: 'pending' as const, created_at: result.state.job!.submitted_at }, 202);
  });

  router.openapi(getJob, (c) => {
    const { workspaceId } = principalOf(c);
    const { job_id: jobId } = c.req.valid('param');
    const document = findTranscriptionJobDocument(readDb, workspaceId, jobId);
    if (document === undefined) throw resourceNotFound('transcription_job', jobId);
    return prebuiltJson<z.infer<typeof TranscriptionJobSchema>>(c, document);
  });

  router.openapi(listJobs, (c) => {
    const { workspaceId } = principalOf(c);
    const query = c.req.valid('query');
    const { items, total } = listTranscriptionJobs(readDb, workspaceId, query.status, query.limit, query.offset);
    return prebuiltListJson<z.infer<typeof TranscriptionJobListSchema>>(c, items, total, query);
  });

  return router;
}
