import type { Runtime } from '../../../composition.ts';
import { callDecider, type CallEvent, type CallState } from '../../../domain/call.ts';
import { campaignDecider, campaignStream, contactViews, type CampaignEvent, type CampaignState, type ContactView, type CreateCampaign } from '../../../domain/campaign.ts';
import { scriptDecider, scriptStream } from '../../../domain/script.ts';
import type { Script } from '../../../domain/script-types.ts';
import { fold } from '../../../domain/shared/decider.ts';
import { workspaceDecider, workspaceStream } from '../../../domain/workspace.ts';
import type { ManualClock } from '../../../infra/clock/manual.ts';
import type { RecordedEvent } from '../../../infra/eventstore/port.ts';
import { newId } from '../../../infra/ids.ts';
import { createDialingProcesses } from '../../../processes/calling/dialing.ts';
import { eventually, testRuntime } from '../../support/runtime.ts';
import { scripts } from './fixtures.ts';

/** A runtime on a temporary DATA_DIR with the calling module's process managers (and only those). */
export function dialingRuntime(options: { dataDir?: string; environment?: Record<string, string> } = {}) {
  return testRuntime({ dataDir: options.dataDir, environment: options.environment, processes: (runtime) => createDialingProcesses(runtime) });
}

const context = (runtime: Runtime, workspaceId: string) => ({ workspaceId, actor: 'test', now: runtime.clock.now() });

export async function createWorkspace(runtime: Runtime, concurrency?: number): Promise<string> {
  const workspaceId = newId('ws');
  const stream = workspaceStream(workspaceId);
  await runtime.commands.handle(workspaceDecider, stream, { type: 'CreateWorkspace', workspaceId, name: 'Dialing test', now: runtime.clock.now() }, context(runtime, workspaceId));
  if (concurrency !== undefined) {
    await runtime.commands.handle(workspaceDecider, stream, { type: 'SetDialingConcurrency', limit: concurrency }, context(runtime, workspaceId));
  }
  return workspaceId;
}

export async function createScript(runtime: Runtime, workspaceId: string, script: Script = scripts.en): Promise<string> {
  const scriptId = newId('scr');
  await runtime.commands.handle(scriptDecider, scriptStream(scriptId), { type: 'CreateScript', scriptId, workspaceId, script, now: runtime.clock.now() }, context(runtime, workspaceId));
  return scriptId;
}

type CampaignOptions = Partial<Omit<CreateCampaign['data'], 'campaign_id' | 'workspace_id' | 'script_id' | 'created_at'>>;

export async function createCampaign(runtime: Runtime, workspaceId: string, scriptId: string, options: CampaignOptions): Promise<string> {
  const campaignId = newId('cmp');
  await runtime.commands.handle(
    campaignDecider,
    campaignStream(campaignId),
    {
      type: 'CreateCampaign',
      facts: { script: { version: 1, variables: [] } },
      data: {
        campaign_id: campaignId,
        workspace_id: workspaceId,
        script_id: scriptId,
        name: 'Dialing test',
        language: 'en-IN',
        contacts: [],
        recording_enabled: false,
        created_at: runtime.clock.now().toISOString(),
        ...options,
      },
    },
    context(runtime, workspaceId),
  );
  return campaignId;
}

export async function campaignAction(runtime: Runtime, workspaceId: string, campaignId: string, type: 'StartCampaign' | 'PauseCampaign' | 'ResumeCampaign' | 'StopCampaign') {
  const at = runtime.clock.now().toISOString();
  const command = type === 'StartCampaign' ? { type, data: { at, trigger: 'manual' as const } } : { type, data: { at } };
  return runtime.commands.handle(campaignDecider, campaignStream(campaignId), command, context(runtime, workspaceId));
}

/** A campaign as the tests look at it: its folded state with every contact expanded to a view. */
export type CampaignSnapshot = Omit<CampaignState, 'contacts'> & { contacts: ContactView[] };

/** A fresh fold of the campaign's events (never the command handler's cached, in-place evolved state). */
export async function campaignState(runtime: Runtime, campaignId: string): Promise<CampaignSnapshot> {
  const events = await runtime.store.readStream(campaignStream(campaignId));
  const state = fold(campaignDecider, events.map((event) => ({ type: event.type, data: event.data }) as CampaignEvent));
  return { ...state, contacts: contactViews(state) };
}

export interface CallRecord {
  callId: string;
  events: RecordedEvent[];
  state: CallState;
}

/** Every call of the store (optionally of one campaign), with its events and folded state. */
export async function calls(runtime: Runtime, campaignId?: string): Promise<CallRecord[]> {
  const records: CallRecord[] = [];
  for (const { stream } of await runtime.store.listStreams({ prefix: 'call-' })) {
    const events = await runtime.store.readStream(stream);
    const state = fold(callDecider, events.map((event) => ({ type: event.type, data: event.data }) as CallEvent));
    if (campaignId === undefined || state.placed?.campaign_id === campaignId) records.push({ callId: stream.slice('call-'.length), events, state });
  }
  return records;
}

/** Waits until nothing of the campaign is on the line and the dialer has nothing more to do right now. */
export async function settled(runtime: Runtime, campaignId: string, what: (state: CampaignSnapshot) => boolean, timeoutMs = 10_000): Promise<CampaignSnapshot> {
  let state!: CampaignSnapshot;
  await eventually(async () => {
    state = await campaignState(runtime, campaignId);
    return what(state);
  }, timeoutMs, `campaign ${campaignId} to settle`);
  return state;
}

export const isCompleted = (state: CampaignSnapshot) => state.status === 'completed';
/** No call on the line and nothing pending: only retries (awaiting their timers) or final contacts remain. */
export const isWaitingForRetries = (state: CampaignSnapshot) => state.statusCounts.dialing === 0 && state.statusCounts.pending === 0;

export async function advance(runtime: Runtime, seconds: number): Promise<void> {
  (runtime.clock as ManualClock).advance(seconds);
  await runtime.projections.catchUp();
  await runtime.timers.fireDue();
}

export function phone(ending: string): string {
  return `+9198765000${ending}`;
}

export function contact(ending: string, extra: Record<string, unknown> = {}) {
  return { phone: phone(ending), name: `Customer ${ending}`, loan_amount: 5000, ...extra };
}
