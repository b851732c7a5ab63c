import { z } from '@hono/zod-openapi';
import { Timestamp } from './common.ts';

/** The caller's workspace: its limits (set by the operator CLI) and its analysis defaults (set here). */
export const WorkspaceSchema = z
  .object({
    id: z.string().openapi({ example: 'ws_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    name: z.string(),
    rate_limit_per_minute: z.int().openapi({ description: 'API requests per minute (operator setting).' }),
    dialing_concurrency: z.int().openapi({ description: 'Calls in progress at once (operator setting).' }),
    default_qa_scorecard_id: z
      .string()
      .nullable()
      .openapi({ description: "Connected calls are scored against it when neither the call nor its campaign names a scorecard; null: such calls get no QA score." }),
    created_at: Timestamp,
  })
  .openapi('Workspace');

export const UpdateWorkspaceBody = z
  .strictObject({
    default_qa_scorecard_id: z.string().nullable().openapi({ description: 'A QA scorecard of the workspace, or null to clear.', example: 'qsc_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
  })
  .openapi('UpdateWorkspace');
