import { askPreDialRules } from '../../commands/compliance-pre-dial.ts';
import { wasRefused, type Commands } from '../../commands/handler.ts';
import { callDecider, callStream } from '../../domain/call.ts';
import {
  attemptCallId,
  CAMPAIGN_LIFECYCLE_EVENT_TYPES,
  campaignDecider,
  campaignIdOf,
  campaignStream,
  contactsDialing,
  dueRetries,
  type CampaignCommand,
  type CampaignCreated,
  type CampaignEvent,
  type CampaignState,
  type DialableContact,
  type DueAttempt,
} from '../../domain/campaign.ts';
import { isSuppressed, suppressionDecider, suppressionStream } from '../../domain/suppression.ts';
import type { TimerEvent } from '../../domain/timer.ts';
import type { WorkspaceEvent } from '../../domain/workspace.ts';
import type { Clock } from '../../infra/clock/port.ts';
import type { EventStore, Recorded } from '../../infra/eventstore/port.ts';
import type { Database } from 'better-sqlite3';
import { openCampaigns } from '../../projections/dialer.ts';
import type { ProcessManager } from '../process-manager.ts';
import { readModelsCaughtUp, type ReadModelsCatchUpPorts } from '../read-models-ready.ts';
import type { CallSettlement } from './call-settlement.ts';
import { CAMPAIGN_TIMER_KINDS, campaignTimerIds, campaignTimerPayload, isCampaignTimerKind, scheduleCampaignTimer } from './campaign-timers.ts';
import { ContactPages } from './contact-pages.ts';
import { blockAttemptCommand, chooseNextDial, placeCampaignCallCommand, reserveAttemptCommand, suppressContactCommand, type DialingCursor } from './dialing-choice.ts';
import type { DialingSlots } from './dialing-slots.ts';

const ACTOR = 'dialer';

/** The events the dialer reacts to. */
export type DialerEvent =
  | Extract<CampaignEvent, { type: (typeof CAMPAIGN_LIFECYCLE_EVENT_TYPES)[number] | 'ContactRetryScheduled' | 'ContactAttemptBlocked' }>
  | Extract<TimerEvent, { type: 'TimerFired' }>
  | Extract<WorkspaceEvent, { type: 'WorkspaceDialingConcurrencySet' }>;

export interface DialerPorts extends ReadModelsCatchUpPorts {
  commands: Commands;
  clock: Clock;
  readDb: Database;
  /** Reads the contacts' details from the campaigns' ContactsAdded events (contact-pages.ts). */
  store: Pick<EventStore, 'headPosition' | 'readStream'>;
}

/** A running campaign the dialer is working on (only running campaigns are kept). */
interface ActiveCampaign extends DialingCursor {
  campaignId: string;
  workspaceId: string;
  dueRetries: Map<number, number>;
}

type DialResult = 'dialed' | 'skipped' | 'idle';

/**
 * The dialer: places calls for the contacts of running campaigns, at most the workspace's dialing concurrency at a
 * time, and drives schedules and retries on durable timers. What to dial next is chosen by the pure functions of
 * dialing-choice.ts; this class does the I/O around them.
 *
 * - `CampaignCreated` schedules the start and end timers (`starts_at`, `ends_at`); they fire `StartCampaign
 *   {trigger: schedule}` and `ReachCampaignEndTime`.
 * - `CampaignStarted` / `CampaignResumed` make the campaign active; pause, stop and completion drop it (calls on
 *   the line finish; nothing new is placed).
 * - For each free slot: the next due retry, else the next pending contact (`firstPendingHint`: no rescan); a number
 *   on the do-not-call list is finalised `dnd` without a call; outside calling hours nothing is placed and a timer
 *   wakes the campaign when they open. A contact is reserved (`StartContactAttempt`, deterministic call id) before
 *   `PlaceCall`; the campaign refuses a second reservation of the same attempt, so a replay never dials twice.
 * - Before each attempt the workspace's enabled pre-dial compliance rules are asked (commands/compliance-pre-dial.ts);
 *   a refusal is recorded on the campaign (`BlockContactAttempt`): the contact waits for `resumes_at` on a durable
 *   timer (`ContactAttemptBlocked`, like a retry), or is final `dnd` without a call.
 * - `ContactRetryScheduled` schedules a timer at `due_at`; when it fires the contact is queued for its attempt.
 * - The call runner releases a slot when a call's outcome is recorded, which wakes the dialer up again.
 */
export class Dialer implements ProcessManager<DialerEvent> {
  readonly name = 'calling-dialer';
  readonly eventTypes = [...CAMPAIGN_LIFECYCLE_EVENT_TYPES, 'ContactRetryScheduled', 'ContactAttemptBlocked', 'TimerFired', 'WorkspaceDialingConcurrencySet'] as const;
  private readonly campaigns = new Map<string, ActiveCampaign>();
  private readonly campaignsByWorkspace = new Map<string, Set<string>>();
  private readonly pumps = new Map<string, { again: boolean; done: Promise<void> }>();
  private readonly contactPages: ContactPages;
  private stopped = false;

  constructor(
    private readonly ports: DialerPorts,
    private readonly dependencies: { slots: DialingSlots; settlement: CallSettlement },
  ) {
    this.contactPages = new ContactPages(ports.store);
    dependencies.slots.onRelease((workspaceId) => this.pump(workspaceId));
  }

  /**
   * Recovery: every running or paused campaign is checked for attempts reserved but never placed (placed now) and
   * calls that ended without their outcome recorded (settled now); running campaigns become active again.
   */
  async start(): Promise<void> {
    this.stopped = false;
    await readModelsCaughtUp(this.ports);
    for (const row of openCampaigns(this.ports.readDb)) {
      if (row.status === 'scheduled') continue;
      const state = await this.campaignState(row.campaign_id);
      for (const index of contactsDialing(state)) {
        const attempt = state.contacts.attempts[index]!;
        await this.recoverAttempt(state, { contact_index: index, attempt }, attemptCallId(state.campaign_id, index, attempt));
      }
      if (state.status === 'running') await this.activate(row.campaign_id, row.workspace_id);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.pumps.values()].map((pump) => pump.done));
  }

  async handle(event: Recorded<DialerEvent>): Promise<void> {
    const workspaceId = event.metadata.workspace_id ?? '';
    switch (event.type) {
      case 'CampaignCreated':
        return this.scheduleStartAndEnd(event.data, event.id);
      case 'CampaignStarted':
      case 'CampaignResumed':
        return this.activate(campaignIdOf(event.stream), workspaceId);
      case 'CampaignPaused':
      case 'CampaignStopped':
      case 'CampaignCompleted':
        this.deactivate(campaignIdOf(event.stream));
        return;
      case 'ContactRetryScheduled': {
        const campaignId = campaignIdOf(event.stream);
        const { contact_index, attempt, due_at } = event.data;
        return scheduleCampaignTimer(
          this.ports,
          {
            id: campaignTimerIds.retry(campaignId, contact_index, attempt),
            kind: CAMPAIGN_TIMER_KINDS.retry,
            dueAt: new Date(due_at),
            payload: { campaign_id: campaignId, contact_index, attempt },
          },
          { workspaceId, causationId: event.id },
        );
      }
      case 'ContactAttemptBlocked': {
        const { contact_index, attempt, resumes_at } = event.data;
        if (resumes_at === null) return;
        const campaignId = campaignIdOf(event.stream);
        const dueAt = new Date(resumes_at);
        return scheduleCampaignTimer(
          this.ports,
          { id: campaignTimerIds.complianceWait(campaignId, contact_index, attempt, dueAt), kind: CAMPAIGN_TIMER_KINDS.retry, dueAt, payload: { campaign_id: campaignId, contact_index, attempt } },
          { workspaceId, causationId: event.id },
        );
      }
      case 'TimerFired':
        return this.timerFired(event, workspaceId);
      case 'WorkspaceDialingConcurrencySet':
        this.pump(event.data.workspace_id);
        return;
    }
  }

  private async scheduleStartAndEnd(created: CampaignCreated['data'], causationId: string): Promise<void> {
    const { campaign_id: campaignId, workspace_id: workspaceId, starts_at: startsAt, ends_at: endsAt } = created;
    const context = { workspaceId, causationId };
    if (startsAt !== null) {
      const timer = { id: campaignTimerIds.start(campaignId), kind: CAMPAIGN_TIMER_KINDS.start, dueAt: new Date(startsAt), payload: { campaign_id: campaignId } };
      await scheduleCampaignTimer(this.ports, timer, context);
    }
    if (endsAt !== null) {
      const timer = { id: campaignTimerIds.end(campaignId), kind: CAMPAIGN_TIMER_KINDS.end, dueAt: new Date(endsAt), payload: { campaign_id: campaignId } };
      await scheduleCampaignTimer(this.ports, timer, context);
    }
  }

  private async timerFired(event: Recorded<Extract<TimerEvent, { type: 'TimerFired' }>>, workspaceId: string): Promise<void> {
    const { kind, fired_at: firedAt } = event.data;
    if (!isCampaignTimerKind(kind)) return;
    const payload = campaignTimerPayload(event.data.payload);
    const context = { workspaceId, actor: ACTOR, now: this.ports.clock.now(), causationId: event.id };
    const stream = campaignStream(payload.campaign_id);
    switch (kind) {
      case CAMPAIGN_TIMER_KINDS.start:
        // A start that finds the campaign gone (stopped before its start time) changes nothing.
        await this.campaignCommand(stream, { type: 'StartCampaign', data: { at: firedAt, trigger: 'schedule' } }, context);
        return;
      case CAMPAIGN_TIMER_KINDS.end:
        await this.campaignCommand(stream, { type: 'ReachCampaignEndTime', data: { at: firedAt } }, context);
        return;
      case CAMPAIGN_TIMER_KINDS.retry: {
        const campaign = this.campaigns.get(payload.campaign_id);
        // Not active (paused): the retry is found again by the scan when the campaign resumes.
        if (!campaign || payload.contact_index === undefined || payload.attempt === undefined) return;
        campaign.dueRetries.set(payload.contact_index, payload.attempt);
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
    for (const contact of dueRetries(state, this.ports.clock.now(), Number.POSITIVE_INFINITY)) {
      campaign.dueRetries.set(contact.contact_index, contact.attempt);
    }
    this.pump(workspaceId);
  }

  private deactivate(campaignId: string): void {
    const campaign = this.campaigns.get(campaignId);
    if (!campaign) return;
    this.campaigns.delete(campaignId);
    this.contactPages.forget(campaignId);
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
      .catch((error: unknown) => this.ports.logger.error({ err: error, workspace_id: workspaceId }, 'dialer round failed'))
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
    const now = this.ports.clock.now();
    if (campaign.closedUntil !== null && now.getTime() < campaign.closedUntil) return 'idle';
    const state = await this.campaignState(campaignId);
    const { choice, spentRetries } = chooseNextDial(state, campaign, now);
    for (const index of spentRetries) campaign.dueRetries.delete(index);
    switch (choice.kind) {
      case 'stop':
        this.deactivate(campaignId);
        return 'idle';
      case 'closed':
        campaign.closedUntil = choice.opensAt.getTime();
        await scheduleCampaignTimer(
          this.ports,
          { id: campaignTimerIds.callingHours(campaignId, choice.opensAt), kind: CAMPAIGN_TIMER_KINDS.callingHours, dueAt: choice.opensAt, payload: { campaign_id: campaignId } },
          { workspaceId },
        );
        return 'idle';
      case 'idle':
        campaign.closedUntil = null;
        return 'idle';
      case 'dial':
        campaign.closedUntil = null;
        return this.dial(state, choice.attempt, choice.callId, now);
    }
  }

  private async dial(state: CampaignState, attempt: DueAttempt, callId: string, now: Date): Promise<DialResult> {
    const { workspace_id: workspaceId, campaign_id: campaignId } = state;
    const context = { workspaceId, actor: ACTOR, now };
    const contact = await this.dialable(campaignId, attempt);
    const blocked = await askPreDialRules(this.ports, {
      workspaceId,
      phone: contact.phone,
      purpose: state.purpose,
      fields: contact.variables,
      campaignTimezone: state.schedule?.timezone ?? null,
      now,
      callerId: state.caller_id,
    });
    if (blocked !== null) {
      await this.campaignCommand(campaignStream(campaignId), blockAttemptCommand(contact, blocked, now), context);
      return 'skipped';
    }
    if (await this.suppressed(workspaceId, contact.phone)) {
      await this.campaignCommand(campaignStream(campaignId), suppressContactCommand(contact, now), context);
      return 'skipped';
    }
    this.dependencies.slots.hold(workspaceId, callId);
    let reserved;
    try {
      // Refused as already_exists: reserved before (a replay after a restart), so make sure it is placed. Any
      // other refusal: the contact or the campaign moved on (removed, paused) between the read and the reservation.
      reserved = await this.ports.commands.handle(campaignDecider, campaignStream(campaignId), reserveAttemptCommand(contact, callId, now), context, {
        tolerate: ['already_exists', 'invalid_state', 'invalid_parameter'],
      });
    } catch (error) {
      this.dependencies.slots.release(workspaceId, callId);
      throw error;
    }
    if (wasRefused(reserved) && reserved.refused.code !== 'already_exists') {
      this.dependencies.slots.release(workspaceId, callId);
      return 'skipped';
    }
    await this.place(state, contact, callId, now);
    return 'dialed';
  }

  private async place(state: CampaignState, contact: DialableContact, callId: string, now: Date): Promise<void> {
    const command = placeCampaignCallCommand(state, contact, callId, now, false);
    await this.ports.commands.handle(callDecider, callStream(callId), command, { workspaceId: state.workspace_id, actor: ACTOR, now }, { tolerate: ['already_exists'] });
  }

  /** The attempt with its contact's phone, name and variables (from the campaign's ContactsAdded events). */
  private async dialable(campaignId: string, attempt: DueAttempt): Promise<DialableContact> {
    const { phone, name, variables } = await this.contactPages.contact(campaignId, attempt.contact_index);
    return { ...attempt, phone, name, variables };
  }

  /** Restart: an attempt reserved before the crash is placed if it never was, or settled if its call ended. */
  private async recoverAttempt(state: CampaignState, attempt: DueAttempt, callId: string): Promise<void> {
    const { state: call } = await this.ports.commands.load(callDecider, callStream(callId));
    if (call.status === null) {
      this.dependencies.slots.hold(state.workspace_id, callId);
      await this.place(state, await this.dialable(state.campaign_id, attempt), callId, this.ports.clock.now());
    } else if (call.status === 'in_progress') {
      this.dependencies.slots.hold(state.workspace_id, callId);
    } else {
      await this.dependencies.settlement.settle(callId);
    }
  }

  private async suppressed(workspaceId: string, phone: string): Promise<boolean> {
    const { state } = await this.ports.commands.load(suppressionDecider, suppressionStream(workspaceId));
    return isSuppressed(state, phone);
  }

  private async campaignState(campaignId: string): Promise<CampaignState> {
    // `load` waits behind the commands on the stream, so the in-place evolved state is never folded twice.
    return (await this.ports.commands.load(campaignDecider, campaignStream(campaignId))).state;
  }

  /** A timer or a suppression the campaign may no longer need (it ended, the contact moved on): invalid_state. */
  private async campaignCommand(stream: string, command: CampaignCommand, context: { workspaceId: string; actor: string; now: Date; causationId?: string | null }): Promise<void> {
    await this.ports.commands.handle(campaignDecider, stream, command, context, { tolerate: ['invalid_state'] });
  }
}
