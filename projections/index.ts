import type { Projection } from './projection.ts';
import { apiKeysProjection } from './api-keys.ts';
import { dialerProjection } from './dialer.ts';
import { qaScorecardsProjection } from './qa-scorecards.ts';
import { agentsProjection } from './agents.ts';
import { analyticsProjection } from './analytics.ts';
import { transcriptionJobsProjection } from './transcription-jobs.ts';
import { callsProjection } from './calls.ts';
import { campaignsProjection } from './campaigns.ts';
import { scriptsProjection } from './scripts.ts';
import { suppressionsProjection } from './suppressions.ts';
import { timersProjection } from './timers.ts';
import { transcriptSearchProjection } from './transcript-search.ts';
import { webhookDeliveriesProjection } from './webhook-deliveries.ts';
import { webhooksProjection } from './webhooks.ts';
import { workspacesProjection } from './workspaces.ts';
import { complianceAuditsProjection } from './compliance-audits.ts';
import { complianceResultsProjection } from './compliance-results.ts';
import { complianceSettingsProjection } from './compliance-settings.ts';
import { reportsProjection } from './reports.ts';

/** Every read model of the service. `projections rebuild NAME` takes these names. */
/** The read models of read.db: what a write's read-your-writes waits for. */
export const readModelProjections: readonly Projection[] = [workspacesProjection, apiKeysProjection, timersProjection, scriptsProjection, qaScorecardsProjection, transcriptionJobsProjection, campaignsProjection, callsProjection, suppressionsProjection, dialerProjection, agentsProjection, analyticsProjection, webhooksProjection, webhookDeliveriesProjection, complianceSettingsProjection, complianceResultsProjection, complianceAuditsProjection, reportsProjection];

/**
 * The search index, in search.db with its own runner and thread: indexing a 4,000-segment transcript takes a
 * quarter of a second, which would hold every workspace's read-your-writes behind it (issue 12).
 */
export const searchProjections: readonly Projection[] = [transcriptSearchProjection];

/** Every projection (tests and tools that build all read models into one database). */
export const allProjections: readonly Projection[] = [...readModelProjections, ...searchProjections];

/** The two lanes of read models: each its own database file, runner and thread. */
export type ReadModelLane = 'read' | 'search';
