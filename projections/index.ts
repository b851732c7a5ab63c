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

/** Every read model of the service. `projections rebuild NAME` takes these names. */
export const allProjections: readonly Projection[] = [workspacesProjection, apiKeysProjection, timersProjection, scriptsProjection, qaScorecardsProjection, transcriptionJobsProjection, campaignsProjection, callsProjection, suppressionsProjection, dialerProjection, agentsProjection, analyticsProjection, webhooksProjection, webhookDeliveriesProjection, transcriptSearchProjection, complianceSettingsProjection, complianceResultsProjection, complianceAuditsProjection];
