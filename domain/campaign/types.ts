import type { CallPurpose, ComplianceSeverity } from '../compliance/rule.ts';
import type { DomainEvent } from '../shared/decider.ts';
import type { Disposition, DispositionSummary } from '../shared/disposition.ts';
import type { SupportedLanguage } from '../shared/language.ts';
import type { ContactTable } from './contact-table.ts';
import type { CallingHours } from './schedule.ts';

/** Campaign: stream `campaign-<id>`. Commands, events and state; rules in decide.ts and evolve.ts. */

export type CampaignStatus = 'scheduled' | 'running' | 'paused' | 'completed' | 'stopped';

export type CompletionReason = 'all_contacts_final' | 'end_time_reached';

/** The schedule object exactly as submitted (the API echoes it). */
export interface CampaignSchedule {
  start_time: string;
  end_time?: string;
  timezone?: string;
}

/** A contact as the API receives it: phone and name plus any custom variables. */
export interface ContactInput {
  phone: string;
  name: string;
  [variable: string]: unknown;
}

export interface CampaignContact {
  /** Position in the submitted list (0-based); stable for the campaign's life. */
  index: number;
  phone: string;
  name: string;
  /** The contact's other keys, for `{key}` placeholders in the script. */
  variables: Record<string, unknown>;
}

export type ContactStatus = 'pending' | 'dialing' | 'awaiting_retry' | 'final' | 'removed';

/** What the carrier reported for one attempt. */
/** `suppressed`: the call was stopped before dialing, its number having gone on the do-not-call list. */
export type AttemptOutcome = 'connected' | 'no_answer' | 'busy' | 'invalid_number' | 'carrier_error' | 'suppressed';

/** `compliance_blocked`: a pre-dial rule refused the contact for good (no consent, opted out, ...): final `dnd`, never called. */
export type FinalReason = 'connected' | 'attempts_exhausted' | 'invalid_number' | 'suppressed' | 'campaign_ended' | 'compliance_blocked';

// ---------------------------------------------------------------------------------------------------- commands

/** The campaign's script as the creator found it: its current version is pinned on the campaign. */
export interface CampaignScriptFacts {
  version: number;
  /** Every `{variable}` the script's steps use: each must be on every contact (`name` and `phone` always are). */
  variables: readonly string[];
  /** Whether the script has a step with id `voicemail` (the message `voicemail: leave_message` says). */
  has_voicemail_step?: boolean;
}

/** What a call of the campaign does when a machine answers (docs/telephony.md, "Answering-machine detection"). */
export const VOICEMAIL_ACTIONS = ['hang_up', 'leave_message'] as const;
export type VoicemailAction = (typeof VOICEMAIL_ACTIONS)[number];

export interface CreateCampaign {
  type: 'CreateCampaign';
  /** Looked up by whoever creates the campaign; null: no such script in the workspace (or it was deleted). */
  /** `scorecard_found`: with `qa_scorecard_id`, whether that scorecard exists in the workspace. */
  facts: { script: CampaignScriptFacts | null; scorecard_found?: boolean };
  data: {
    campaign_id: string;
    workspace_id: string;
    name: string;
    script_id: string;
    language: string;
    contacts: ContactInput[];
    schedule?: CampaignSchedule | null;
    calling_hours?: CallingHours | null;
    max_attempts?: number;
    retry_interval_minutes?: number;
    recording_enabled?: boolean;
    /** The QA scorecard every connected call's transcript is scored against (null: the workspace's default). */
    qa_scorecard_id?: string | null;
    /** Why the campaign calls (issue 14): which compliance packs apply. Default `service`. */
    purpose?: CallPurpose;
    /** E.164 caller id of every call of the campaign (null: the carrier's default, SIP_CALLER_ID). */
    caller_id?: string | null;
    /** When a machine answers: `hang_up` (default) or `leave_message` (the script's `voicemail` step). */
    voicemail?: VoicemailAction;
    created_at: string;
  };
}

/** `trigger: 'schedule'` comes from the start_time timer and is a no-op when the campaign is no longer scheduled. */
export interface StartCampaign {
  type: 'StartCampaign';
  data: { at: string; trigger: 'manual' | 'schedule' };
}
export interface PauseCampaign {
  type: 'PauseCampaign';
  data: { at: string };
}
export interface ResumeCampaign {
  type: 'ResumeCampaign';
  data: { at: string };
}
export interface StopCampaign {
  type: 'StopCampaign';
  data: { at: string };
}
/** From the end_time timer: a no-op when the campaign already ended. */
export interface ReachCampaignEndTime {
  type: 'ReachCampaignEndTime';
  data: { at: string };
}
/** The dialer reserves attempt `attempt` (1-based) of a contact before dialing, with a deterministic call id. */
export interface StartContactAttempt {
  type: 'StartContactAttempt';
  data: { contact_index: number; attempt: number; call_id: string; at: string };
}
export interface RecordContactAttemptOutcome {
  type: 'RecordContactAttemptOutcome';
  data: {
    contact_index: number;
    call_id: string;
    outcome: AttemptOutcome;
    /** Required when connected: what the conversation decided. */
    disposition?: Disposition | null;
    ended_at: string;
  };
}
/** The contact's number is on the workspace's do-not-call list: final `dnd` without a call. */
export interface SuppressContact {
  type: 'SuppressContact';
  data: { contact_index: number; at: string };
}
/**
 * A pre-dial compliance rule refused the attempt the dialer was about to make (never a silent drop): the contact
 * waits until `resumes_at` (a closed window, a cap), or is final `dnd` without a call (`resumes_at` null).
 */
export interface BlockContactAttempt {
  type: 'BlockContactAttempt';
  data: ContactAttemptBlockedData;
}
export interface RemoveContacts {
  type: 'RemoveContacts';
  data: { phones: string[]; at: string };
}

export type CampaignCommand =
  | CreateCampaign
  | StartCampaign
  | PauseCampaign
  | ResumeCampaign
  | StopCampaign
  | ReachCampaignEndTime
  | StartContactAttempt
  | RecordContactAttemptOutcome
  | SuppressContact
  | BlockContactAttempt
  | RemoveContacts;

// ------------------------------------------------------------------------------------------------------ events

/** A campaign's settings as validated at creation: carried by CampaignCreated and kept in the state. */
export interface CampaignSettings {
  name: string;
  language: SupportedLanguage;
  max_attempts: number;
  retry_interval_minutes: number;
  schedule: CampaignSchedule | null;
  /** The schedule resolved to instants (UTC ISO), for timers. */
  starts_at: string | null;
  ends_at: string | null;
  timezone: string;
  calling_hours: CallingHours | null;
  recording_enabled: boolean;
  qa_scorecard_id: string | null;
  purpose: CallPurpose;
  /** E.164; null: the carrier's default caller id. */
  caller_id: string | null;
  voicemail: VoicemailAction;
}

/** Which campaign, of which workspace, running which pinned script version. */
export interface CampaignIdentity {
  campaign_id: string;
  workspace_id: string;
  script_id: string;
  script_version: number;
}

export type CampaignCreated = DomainEvent<
  'CampaignCreated',
  CampaignIdentity & CampaignSettings & { total_contacts: number; created_at: string }
>;
/** At most 1,000 contacts each, appended with CampaignCreated, in index order. */
export type ContactsAdded = DomainEvent<'ContactsAdded', { contacts: CampaignContact[] }>;
export type CampaignStarted = DomainEvent<'CampaignStarted', { started_at: string; trigger: 'manual' | 'schedule' }>;
export type CampaignPaused = DomainEvent<'CampaignPaused', { paused_at: string }>;
export type CampaignResumed = DomainEvent<'CampaignResumed', { resumed_at: string }>;
export type CampaignStopped = DomainEvent<'CampaignStopped', { stopped_at: string }>;
export type CampaignCompleted = DomainEvent<'CampaignCompleted', { completed_at: string; reason: CompletionReason }>;
export type ContactAttemptStarted = DomainEvent<
  'ContactAttemptStarted',
  { contact_index: number; attempt: number; call_id: string; started_at: string }
>;
export type ContactAttemptEnded = DomainEvent<
  'ContactAttemptEnded',
  {
    contact_index: number;
    attempt: number;
    call_id: string;
    outcome: AttemptOutcome;
    disposition: Disposition | null;
    ended_at: string;
  }
>;
/** A durable timer: the dialer may start attempt `attempt` at `due_at` (calling hours permitting). */
export type ContactRetryScheduled = DomainEvent<'ContactRetryScheduled', { contact_index: number; attempt: number; due_at: string }>;
export type ContactFinalized = DomainEvent<
  'ContactFinalized',
  { contact_index: number; disposition: Disposition; reason: FinalReason; at: string }
>;
export interface ContactAttemptBlockedData {
  contact_index: number;
  /** The attempt that was not made (it is made later, under the same number, when the contact waits). */
  attempt: number;
  rule_id: string;
  check: string;
  severity: ComplianceSeverity;
  rule_pack: { id: string; version: string };
  reason: string;
  /** When the contact may be tried again; null: never (final `dnd`). */
  resumes_at: string | null;
  blocked_at: string;
}
export type ContactAttemptBlocked = DomainEvent<'ContactAttemptBlocked', ContactAttemptBlockedData>;
/** One per removal request, with its counts (the API response), even when nothing was removed. */
export type ContactsRemoved = DomainEvent<
  'ContactsRemoved',
  { contact_indexes: number[]; removed: number; not_found: number; already_called: number; removed_at: string }
>;

export type CampaignEvent =
  | CampaignCreated
  | ContactsAdded
  | CampaignStarted
  | CampaignPaused
  | CampaignResumed
  | CampaignStopped
  | CampaignCompleted
  | ContactAttemptStarted
  | ContactAttemptEnded
  | ContactRetryScheduled
  | ContactFinalized
  | ContactAttemptBlocked
  | ContactsRemoved;

/** The campaign's own status moves, from creation to its end: what follows a campaign's lifecycle reacts to. */
export const CAMPAIGN_LIFECYCLE_EVENT_TYPES = [
  'CampaignCreated',
  'CampaignStarted',
  'CampaignPaused',
  'CampaignResumed',
  'CampaignStopped',
  'CampaignCompleted',
] as const satisfies ReadonlyArray<CampaignEvent['type']>;

export const CAMPAIGN_EVENT_TYPES: ReadonlyArray<CampaignEvent['type']> = [
  'CampaignCreated',
  'ContactsAdded',
  'CampaignStarted',
  'CampaignPaused',
  'CampaignResumed',
  'CampaignStopped',
  'CampaignCompleted',
  'ContactAttemptStarted',
  'ContactAttemptEnded',
  'ContactRetryScheduled',
  'ContactFinalized',
  'ContactAttemptBlocked',
  'ContactsRemoved',
];

// ------------------------------------------------------------------------------------------------------- state

export interface CampaignState extends CampaignIdentity, CampaignSettings {
  /** null until CampaignCreated. */
  status: CampaignStatus | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  completion_reason: CompletionReason | null;
  total_contacts: number;
  /** Every contact's phone, status, attempts and disposition, compactly (contact-table.ts). */
  contacts: ContactTable;
  /** How many contacts are in each status (completion is checked in O(1)). */
  statusCounts: Record<ContactStatus, number>;
  /** Contacts awaiting a retry: index → when it is due (the dialer's due-check set). */
  retries: Map<number, string>;
  /** No contact below this index is pending (the dialer's scan starts here). */
  firstPendingHint: number;
  calls_made: number;
  calls_connected: number;
  disposition_summary: DispositionSummary;
}
