import type { Runtime } from '../composition.ts';
import { recordingUrlFor } from '../http/recording-url.ts';
import { createDialingProcesses } from './calling/dialing.ts';
import { createCallTranscription } from './analysis/call-transcription.ts';
import { createTranscriptionWorker } from './analysis/transcription-worker.ts';
import type { ProcessManager } from './process-manager.ts';
import { webhookProcessManagers } from './webhooks/index.ts';

/** Every process manager the server runs, built once the runtime exists. */
export function createProcessManagers(runtime: Runtime): ProcessManager[] {
  return [createTranscriptionWorker(runtime), createCallTranscription(runtime), ...createDialingProcesses(runtime), ...webhookProcessManagers(runtime, recordingUrlFor)];
}
