import type { Runtime } from '../../composition.ts';
import { callDecider, callStream } from '../../domain/call.ts';
import { deterministicId } from '../../infra/ids.ts';
import type { ProcessManager } from '../process-manager.ts';
import type { QueueLimits } from './delivery-queue.ts';
import { webhookDispatcher } from './dispatcher.ts';
import { webhookFanOut } from './fan-out.ts';
import type { PayloadSources } from './payloads.ts';

export type RecordingUrl = (runtime: Runtime, callId: string, blobKey: string | null) => string | null;

/** What payloads are built from, on a runtime. */
export function payloadSources(runtime: Runtime, recordingUrl: RecordingUrl): PayloadSources {
  return {
    loadCall: async (callId) => (await runtime.commands.load(callDecider, callStream(callId))).state,
    readStream: (stream, fromRevision, limit) => runtime.store.readStream(stream, { fromRevision, limit }),
    recordingUrl: (callId, blobKey) => recordingUrl(runtime, callId, blobKey),
    transcriptJobId: (callId) => deterministicId('job', callId),
  };
}

/** The webhook process managers: fan-out (events → deliveries) and the dispatcher (deliveries → HTTPS). */
export function webhookProcessManagers(runtime: Runtime, recordingUrl: RecordingUrl, limits?: QueueLimits): ProcessManager[] {
  const dispatcher = webhookDispatcher(runtime, limits);
  return [webhookFanOut(runtime, payloadSources(runtime, recordingUrl), (webhookId, deliveryId) => dispatcher.enqueue(webhookId, deliveryId)), dispatcher];
}
