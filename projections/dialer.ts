import type { Database } from 'better-sqlite3';
import { callIdOf, type CallEvent } from '../domain/call.ts';
import { CAMPAIGN_LIFECYCLE_EVENT_TYPES, campaignIdOf, type CampaignEvent } from '../domain/campaign.ts';
import { defineProjection } from './projection.ts';

type DialerReadModelEvent =
  | Extract<CampaignEvent, { type: (typeof CAMPAIGN_LIFECYCLE_EVENT_TYPES)[number] }>
  | Extract<CallEvent, { type: 'CallPlaced' | 'CallEnded' | 'CallFailed' }>;

/**
 * What the dialing process managers must find again after a restart, and nothing else: the campaigns that are
 * still open (scheduled, running, paused) and the calls still in progress. Their own in-memory bookkeeping is
 * lost on a crash; these two small tables tell them where to look (the aggregates hold the details).
 */
export const dialerProjection = defineProjection<DialerReadModelEvent>({
  name: 'dialer',
  version: 1,
  tables: ['dialer_campaigns', 'dialer_calls'],
  eventTypes: [
    ...CAMPAIGN_LIFECYCLE_EVENT_TYPES,
    'CallPlaced',
    'CallEnded',
    'CallFailed',
  ],
  migrate(db) {
    db.exec(`CREATE TABLE IF NOT EXISTS dialer_campaigns (
      campaign_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      status TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS dialer_calls (
      call_id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL,
      position INTEGER NOT NULL
    );`);
  },
  prepare(db) {
    const insertCampaign = db.prepare(
      `INSERT INTO dialer_campaigns (campaign_id, workspace_id, status) VALUES (?, ?, 'scheduled') ON CONFLICT(campaign_id) DO NOTHING`,
    );
    const setStatus = db.prepare('UPDATE dialer_campaigns SET status = ? WHERE campaign_id = ?');
    const closeCampaign = db.prepare('DELETE FROM dialer_campaigns WHERE campaign_id = ?');
    const insertCall = db.prepare('INSERT OR REPLACE INTO dialer_calls (call_id, workspace_id, position) VALUES (?, ?, ?)');
    const endCall = db.prepare('DELETE FROM dialer_calls WHERE call_id = ?');
    return (event) => {
      switch (event.type) {
        case 'CampaignCreated':
          insertCampaign.run(event.data.campaign_id, event.data.workspace_id);
          break;
        case 'CampaignStarted':
        case 'CampaignResumed':
          setStatus.run('running', campaignIdOf(event.stream));
          break;
        case 'CampaignPaused':
          setStatus.run('paused', campaignIdOf(event.stream));
          break;
        case 'CampaignStopped':
        case 'CampaignCompleted':
          closeCampaign.run(campaignIdOf(event.stream));
          break;
        case 'CallPlaced':
          insertCall.run(event.data.call_id, event.data.workspace_id, event.position);
          break;
        case 'CallEnded':
        case 'CallFailed':
          endCall.run(callIdOf(event.stream));
          break;
      }
    };
  },
});

export interface OpenCampaignRow {
  campaign_id: string;
  workspace_id: string;
  status: 'scheduled' | 'running' | 'paused';
}

/** Campaigns not yet stopped or completed. */
export function openCampaigns(db: Database): OpenCampaignRow[] {
  return db.prepare<[], OpenCampaignRow>('SELECT campaign_id, workspace_id, status FROM dialer_campaigns ORDER BY campaign_id').all();
}

export interface CallInProgressRow {
  call_id: string;
  workspace_id: string;
  /** Global position of the call's CallPlaced. */
  position: number;
}

/** Calls placed and not yet ended or failed. */
export function callsInProgress(db: Database): CallInProgressRow[] {
  return db.prepare<[], CallInProgressRow>('SELECT call_id, workspace_id, position FROM dialer_calls ORDER BY position').all();
}
