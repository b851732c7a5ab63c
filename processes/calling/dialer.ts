import type { Runtime } from '../../composition.ts';
import { callDecider, callStream, type PlaceCall } from '../../domain/call.ts';
import {
  CAMPAIGN_LIFECYCLE_EVENT_TYPES,
  campaignDecider,
  campaignStream,
  contactTemplateValues,
  dueRetries,
  isWithinCallingHours,
  nextCallingTime,
  nextPendingContacts,
  type CampaignCommand,
  type CampaignCreated,
  type CampaignState,
  type ContactRetryScheduled,
  type DialableContact,
} from '../../domain/campaign.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { isSuppressed, suppressionDecider, suppressionStream } from '../../domain/suppression.ts';
import type { RecordedEvent } from '../../infra/eventstore/port.ts';
import { deterministicId } from '../../infra/ids.ts';
import { openCampaigns } from '../../projections/dialer.ts';
import type { ProcessManager } from '../process-manager.ts';
import type { CallSettlement } from './call-settlement.ts';
import { CAMPAIGN_TIMER_KINDS, campaignTimerIds, isCampaignTimerKind, scheduleCampaignTimer, type CampaignTimerPayload } from './campaign-timers.ts';
import type { DialingSlots } from './dialing-slots.ts';
import { waitForReadModels } from './read-models-ready.ts';

const ACTOR = 'dialer';

/** A running campaign the dialer is working on (only running campaigns are kept). */
interface ActiveCampaign {
  campaignId: string;
  workspaceId: string;
  /** Retries whose timer fired: contact index → attempt, in firing order (a Map dedupes replays). */
  dueRetries: Map<number, number>;
  /** Calling hours are closed until this instant (ms since epoch); a timer wakes the campaign up. */
  closedUntil: number | null;
}

type DialResult = 'dialed' | 'skipped' | 'idle';

/**
 * The dialer: places calls for the contacts of running campaigns, at most the workspace's dialing concurrency at a
 * time, and drives schedules and retries on durable timers.
 *
 * - `CampaignCreated` schedules the start and end timers (`starts_at`, `ends_at`); they fire `StartCampaign
 *   {trigger: schedule}` and `ReachCampaignEndTime`.
 * - `CampaignStarted` / `CampaignResumed` make the campaign active; pause, stop and completion drop it (calls on
 *   the line finish; nothing new is placed).
 * - For each free slot: the next due retry, else the next pending contact (`firstPendingHint`: no rescan); a number
 *   on the do-not-call list is finalised `dnd` without a call; outside calling hours nothing is placed and a timer
 *   wakes the campaign when they open. A contact is reserved (`StartContactAttempt`, deterministic call id) before
 *   `PlaceCall`; the campaign refuses a second reservation of the same attempt, so a replay never dials twice.
 * - `ContactRetryScheduled` schedules a timer at `due_at`; when it fires the contact is queued for its attempt.
 * - The call runner releases a slot when a call's outcome is recorded, which wakes the dialer up again.
 */
export class Dialer implements ProcessManager {
  readonly name = 'calling-dialer';
  readonly eventTypes = [
    ...CAMPAIGN_LIFECYCLE_EVENT_TYPES,
    'ContactRetryScheduled',
    'TimerFired',
    'WorkspaceDialingConcurrencySet',
  ] as const;
  private readonly campaigns = new Map<string, ActiveCampaign>();
  private readonly campaignsByWorkspace = new Map<string, Set<string>>();
  private readonly pumps = new Map<string, { again: boolean; done: Promise<void> }>();
  private stopped = false;

  constructor(
    private readonly runtime: Runtime,
    private readonly dependencies: { slots: DialingSlots; settlement: CallSettlement },
  ) {
    dependencies.slots.onRelease((workspaceId) => this.pump(workspaceId));
  }

  /**
   * Recovery: every running or paused campaign is checked for attempts reserved but never placed (placed now) and
   * calls that ended without their outcome recorded (settled now); running campaigns become active again.
   */
  async start(): Promise<void> {
    this.stopped = false;
    await waitForReadModels(this.runtime);
    for (const row of openCampaigns(this.runtime.readDb)) {
      if (row.status === 'scheduled') continue;
      const state = await this.campaignState(row.campaign_id);
      if (state.statusCounts.dialing > 0) {
        for (const contact of state.contacts) {
          if (contact.status !== 'dialing') continue;
          const callId = contact.call_ids[contact.attempts - 1]!;
          await this.recoverAttempt(state, { contact_index: contact.index, attempt: contact.attempts, phone: contact.phone, name: contact.name, variables: contact.variables }, callId);
        }
      }
      if (state.status === 'running') await this.activate(row.campaign_id, row.workspace_id);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.pumps.values()].map((pump) => pump.done));
  }

  async handle(event: RecordedEvent): Promise<void> {
    const workspaceId = event.metadata.workspace_id ?? '';
    const campaignId = event.stream.startsWith('campaign-') ? event.stream.slice('campaign-'.length) : '';
    switch (event.type) {
      case 'CampaignCreated':
        return this.scheduleStartAndEnd(event.data as unknown as CampaignCreated['data'], event.id);
      case 'CampaignStarted':
      case 'CampaignResumed':
        return this.activate(campaignId, workspaceId);
      case 'CampaignPaused':
      case 'CampaignStopped':
      case 'CampaignCompleted':
        this.deactivate(campaignId);
        return;
      case 'ContactRetryScheduled': {
        const { contact_index, attempt, due_at } = event.data as unknown as ContactRetryScheduled['data'];
        return scheduleCampaignTimer(
          this.runtime,
          {
            id: campaignTimerIds.retry(campaignId, contact_index, attempt),
            kind: CAMPAIGN_TIMER_KINDS.retry,
            dueAt: new Date(due_at),
            payload: { campaign_id: campaignId, contact_index, attempt },
          },
          { workspaceId, causationId: event.id },
        );
      }
      case 'TimerFired':
        return this.timerFired(event, workspaceId);
      case 'WorkspaceDialingConcurrencySet':
        this.pump(String(event.data.workspace_id));
        return;
    }
  }

  private async scheduleStartAndEnd(created: CampaignCreated['data'], causationId: string): Promise<void> {
    const { campaign_id: campaignId, workspace_id: workspaceId, starts_at: startsAt, ends_at: endsAt } = created;
    const context = { workspaceId, causationId };
    if (startsAt !== null) {
      const timer = { id: campaignTimerIds.start(campaignId), kind: CAMPAIGN_TIMER_KINDS.start, dueAt: new Date(startsAt), payload: { campaign_id: campaignId } };
      await scheduleCampaignTimer(this.runtime, timer, context);
    }
    if (endsAt !== null) {
      const timer = { id: campaignTimerIds.end(campaignId), kind: CAMPAIGN_TIMER_KINDS.end, dueAt: new Date(endsAt), payload: { campaign_id: campaignId } };
      await scheduleCampaignTimer(this.runtime, timer, context);
    }
  }

  private async timerFired(event: RecordedEvent, workspaceId: string): Promise<void> {
    const kind = event.data.kind;
    if (!isCampaignTimerKind(kind)) return;
    const payload = event.data.payload as unknown as CampaignTimerPayload;
    const firedAt = String(event.data.fired_at);
    const context = { workspaceId, actor: ACTOR, now: this.runtime.clock.now(), causationId: event.id };
    const stream = campaignStream(payload.campaign_id);
    switch (kind) {
      case CAMPAIGN_TIMER_KINDS.start:
        await this.campaignCommand(stream, { type: 'StartCampaign', data: { at: firedAt, trigger: 'schedule' } }, context);
        return;
      case CAMPAIGN_TIMER_KINDS.end:
        await this.campaignCommand(stream, { type: 'ReachCampaignEndTime', data: { at: firedAt } }, context);
        return;
      case CAMPAIGN_TIMER_KINDS.retry: {
        const campaign = this.campaigns.get(payload.campaign_id);
        // Not active (paused): the retry is found again by the scan when the campaign resumes.
        if (!campaign) return;
        campaign.dueRetries.set(payload.contact_index!, payload.attempt!);
        this.pump(campaign.workspaceId);
        return;
      }
      case CAMPAIGN_TIMER_KINDS.callingHours: {
        const campaign = this.campaigns.get(payload.campaign_id);
        if (!campaign) return;
        campaign.closedUntil = null;
        this.pump(campaign.workspaceId);
        return;
      }
    }
  }

  private async activate(campaignId: string, workspaceId: string): Promise<void> {
    let campaign = this.campaigns.get(campaignId);
    if (!campaign) {
      campaign = { campaignId, workspaceId, dueRetries: new Map(), closedUntil: null };
      this.campaigns.set(campaignId, campaign);
      let ids = this.campaignsByWorkspace.get(workspaceId);
      if (!ids) this.campaignsByWorkspace.set(workspaceId, (ids = new Set()));
      ids.add(campaignId);
    }
    // Retries that fell due while the campaign was paused or the process was down: one scan per activation.
    const state = await this.campaignState(campaignId);
    for (const contact of dueRetries(state, this.runtime.clock.now(), Number.POSITIVE_INFINITY)) {
      campaign.dueRetries.set(contact.contact_index, contact.attempt);
    }
    this.pump(workspaceId);
  }

  private deactivate(campaignId: string): void {
    const campaign = this.campaigns.get(campaignId);
    if (!campaign) return;
    this.campaigns.delete(campaignId);
    const ids = this.campaignsByWorkspace.get(campaign.workspaceId);
    ids?.delete(campaignId);
    if (ids?.size === 0) this.campaignsByWorkspace.delete(campaign.workspaceId);
  }

  /** Fills the workspace's free slots in the background; one filler per workspace, woken again if busy. */
  private pump(workspaceId: string): void {
    if (this.stopped) return;
    const running = this.pumps.get(workspaceId);
    if (running) {
      running.again = true;
      return;
    }
    const pump = { again: false, done: Promise.resolve() };
    this.pumps.set(workspaceId, pump);
    pump.done = (async () => {
      do {
        pump.again = false;
        await this.fill(workspaceId);
      } while (pump.again && !this.stopped);
    })()
      .catch((error: unknown) => this.runtime.logger.error({ err: error, workspace_id: workspaceId }, 'dialer round failed'))
      .finally(() => {
        this.pumps.delete(workspaceId);
        // A wake-up that arrived after the last round but before this cleanup.
        if (pump.again) this.pump(workspaceId);
      });
  }

  /** Round-robin over the workspace's running campaigns, one contact each per round, until the slots are full. */
  private async fill(workspaceId: string): Promise<void> {
    const { slots } = this.dependencies;
    const limit = slots.limit(workspaceId);
    while (!this.stopped && slots.inUse(workspaceId) < limit) {
      let progressed = false;
      for (const campaignId of [...(this.campaignsByWorkspace.get(workspaceId) ?? [])]) {
        if (this.stopped || slots.inUse(workspaceId) >= limit) return;
        const campaign = this.campaigns.get(campaignId);
        if (campaign && (await this.dialNext(campaign)) !== 'idle') progressed = true;
        // The embedded store answers synchronously, so without this the dialing loop would run on microtasks
        // alone and starve timers and HTTP requests for as long as a large campaign has contacts.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (!progressed) return;
    }
  }

  private async dialNext(campaign: ActiveCampaign): Promise<DialResult> {
    const { campaignId, workspaceId } = campaign;
    const now = this.runtime.clock.now();
    if (campaign.closedUntil !== null && now.getTime() < campaign.closedUntil) return 'idle';
    const state = await this.campaignState(campaignId);
    if (state.status !== 'running') {
      this.deactivate(campaignId);
      return 'idle';
    }
    if (state.calling_hours !== null && !isWithinCallingHours(now, state.calling_hours, state.timezone)) {
      const opensAt = nextCallingTime(now, state.calling_hours, state.timezone);
      campaign.closedUntil = opensAt.getTime();
      await scheduleCampaignTimer(
        this.runtime,
        { id: campaignTimerIds.callingHours(campaignId, opensAt), kind: CAMPAIGN_TIMER_KINDS.callingHours, dueAt: opensAt, payload: { campaign_id: campaignId } },
        { workspaceId },
      );
      return 'idle';
    }
    campaign.closedUntil = null;
    const contact = this.nextContact(campaign, state, now);
    if (!contact) return 'idle';
    const context = { workspaceId, actor: ACTOR, now };
    if (await this.suppressed(workspaceId, contact.phone)) {
      await this.campaignCommand(campaignStream(campaignId), { type: 'SuppressContact', data: { contact_index: contact.contact_index, at: now.toISOString() } }, context);
      return 'skipped';
    }
    const callId = deterministicId('cal', campaignId, contact.contact_index, contact.attempt);
    this.dependencies.slots.hold(workspaceId, callId);
    try {
      await this.runtime.commands.handle(
        campaignDecider,
        campaignStream(campaignId),
        { type: 'StartContactAttempt', data: { contact_index: contact.contact_index, attempt: contact.attempt, call_id: callId, at: now.toISOString() } },
        context,
      );
    } catch (error) {
      if (!(error instanceof DomainError)) {
        this.dependencies.slots.release(workspaceId, callId);
        throw error;
      }
      // Reserved before (a replay after a restart): make sure it is placed. Anything else: the contact or the
      // campaign moved on (removed, paused) between the read and the reservation.
      if (error.code !== 'already_exists') {
        this.dependencies.slots.release(workspaceId, callId);
        return 'skipped';
      }
    }
    await this.place(state, contact, callId, now);
    return 'dialed';
  }

  /** The next due retry (its timer fired), else the next never-dialed contact. */
  private nextContact(campaign: ActiveCampaign, state: CampaignState, now: Date): DialableContact | null {
    for (const [index, attempt] of campaign.dueRetries) {
      campaign.dueRetries.delete(index);
      const contact = state.contacts[index];
      if (!contact || contact.status !== 'awaiting_retry' || contact.attempts + 1 !== attempt) continue;
      if (contact.retry_due_at === null || Date.parse(contact.retry_due_at) > now.getTime()) continue;
      return { contact_index: index, attempt, phone: contact.phone, name: contact.name, variables: contact.variables };
    }
    return nextPendingContacts(state, 1)[0] ?? null;
  }

  private async place(state: CampaignState, contact: DialableContact, callId: string, now: Date): Promise<void> {
    const command: PlaceCall = {
      type: 'PlaceCall',
      data: {
        call_id: callId,
        workspace_id: state.workspace_id,
        campaign_id: state.campaign_id,
        contact_index: contact.contact_index,
        attempt: contact.attempt,
        contact: { phone: contact.phone, name: contact.name },
        language: state.language,
        script_id: state.script_id,
        script_version: state.script_version,
        variables: contactTemplateValues(contact),
        recording_enabled: state.recording_enabled,
        started_at: now.toISOString(),
      },
    };
    try {
      await this.runtime.commands.handle(callDecider, callStream(callId), command, { workspaceId: state.workspace_id, actor: ACTOR, now });
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'already_exists') throw error;
    }
  }

  /** Restart: an attempt reserved before the crash is placed if it never was, or settled if its call ended. */
  private async recoverAttempt(state: CampaignState, contact: DialableContact, callId: string): Promise<void> {
    const { state: call } = await this.runtime.commands.load(callDecider, callStream(callId));
    if (call.status === null) {
      this.dependencies.slots.hold(state.workspace_id, callId);
      await this.place(state, contact, callId, this.runtime.clock.now());
    } else if (call.status === 'in_progress') {
      this.dependencies.slots.hold(state.workspace_id, callId);
    } else {
      await this.dependencies.settlement.settle(callId);
    }
  }

  private async suppressed(workspaceId: string, phone: string): Promise<boolean> {
    const { state } = await this.runtime.commands.load(suppressionDecider, suppressionStream(workspaceId));
    return isSuppressed(state, phone);
  }

  private async campaignState(campaignId: string): Promise<CampaignState> {
    // `load` waits behind the commands on the stream, so the in-place evolved state is never folded twice.
    return (await this.runtime.commands.load(campaignDecider, campaignStream(campaignId))).state;
  }

  private async campaignCommand(
    stream: string,
    command: CampaignCommand,
    context: { workspaceId: string; actor: string; now: Date; causationId?: string | null },
  ): Promise<void> {
    try {
      await this.runtime.commands.handle(campaignDecider, stream, command, context);
    } catch (error) {
      // A timer or a suppression that the campaign no longer needs (it ended, the contact moved on).
      if (!(error instanceof DomainError)) throw error;
    }
  }
}
