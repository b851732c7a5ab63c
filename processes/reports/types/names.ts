import type { Database } from 'better-sqlite3';
import { findAgent } from '../../../projections/agents.ts';
import { findCampaign } from '../../../projections/campaigns.ts';

/** Display names of the campaigns and agents a report mentions, looked up once each (null: not found, or none). */
export function nameLookup(db: Database, workspaceId: string) {
  const campaigns = new Map<string, string | null>();
  const agents = new Map<string, string | null>();
  return {
    campaign(id: string | null): string | null {
      if (!id) return null;
      if (!campaigns.has(id)) campaigns.set(id, findCampaign(db, workspaceId, id)?.name ?? null);
      return campaigns.get(id)!;
    },
    agent(id: string | null): string | null {
      if (!id) return null;
      if (!agents.has(id)) agents.set(id, findAgent(db, workspaceId, id)?.name ?? null);
      return agents.get(id)!;
    },
  };
}
