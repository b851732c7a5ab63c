import type { Database } from 'better-sqlite3';
import { countActiveCampaignsUsingScript } from '../projections/campaigns.ts';

/**
 * Queries the HTTP layer needs from modules that may not exist yet. `createHttpApp(runtime, overrides)` takes
 * replacements (tests inject their own); the defaults below are what the server runs.
 */
export interface HttpDependencies {
  /** Campaigns of the workspace that use the script and are not final; `DELETE /v1/scripts/{id}` refuses while > 0. */
  countActiveCampaignsUsingScript(db: Database, workspaceId: string, scriptId: string): number;
}

export const defaultDependencies: HttpDependencies = {
  countActiveCampaignsUsingScript,
};
