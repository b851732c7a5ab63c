import type { Database } from 'better-sqlite3';
import type { Commands } from '../../commands/handler.ts';
import { callDecider, callStream } from '../../domain/call.ts';
import { reportDecider, reportStream } from '../../domain/report.ts';
import type { RecordingLinks } from '../../infra/blobs/recording-links.ts';
import { campaignSnapshotAfter } from '../../projections/campaigns.ts';
import type { ProcessManager } from '../process-manager.ts';
import type { QueueLimits } from './delivery-queue.ts';
import { webhookDispatcher, type DispatcherPorts } from './dispatcher.ts';
import { webhookFanOut } from './fan-out.ts';
import type { PayloadSources } from './payloads.ts';

const READ_MODEL_WAIT_MS = 30_000;

export interface WebhookPorts extends Omit<DispatcherPorts, 'allowPrivateTargets'> {
  commands: Commands;
  readDb: Database;
  /** Signs the recording_url of call.completed. */
  recordingLinks: RecordingLinks;
  /** ALLOW_PRIVATE_TARGETS */
  config: { ALLOW_PRIVATE_TARGETS: boolean };
}

/** What payloads are built from: the call's own stream, the campaign's snapshot in the read model, the links. */
export function payloadSources({ commands, readDb, projections, recordingLinks }: Pick<WebhookPorts, 'commands' | 'readDb' | 'projections' | 'recordingLinks'>): PayloadSources {
  return {
    loadCall: async (callId) => (await commands.load(callDecider, callStream(callId))).state,
    async campaignAfter(event) {
      // The snapshot is written when the campaigns read model applies the event.
      if (!(await projections.waitForPosition(event.position, READ_MODEL_WAIT_MS))) throw new Error('read models are behind');
      return campaignSnapshotAfter(readDb, event.id) ?? null;
    },
    recordingUrl: (callId, blobKey) => recordingLinks.urlFor(callId, blobKey),
    loadReport: async (reportId) => (await commands.load(reportDecider, reportStream(reportId))).state,
  };
}

/** The webhook process managers: fan-out (events → deliveries) and the dispatcher (deliveries → HTTPS). */
export function webhookProcessManagers(ports: WebhookPorts, limits?: QueueLimits): ProcessManager[] {
  const dispatcher = webhookDispatcher({ ...ports, allowPrivateTargets: ports.config.ALLOW_PRIVATE_TARGETS }, limits);
  return [webhookFanOut(ports, payloadSources(ports), (workspaceId, webhookId, deliveryId) => dispatcher.enqueue(workspaceId, webhookId, deliveryId)), dispatcher];
}
