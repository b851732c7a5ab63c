import { CALL_PURPOSES } from '../../domain/compliance/rule.ts';
import { ANSWERED_BY } from '../../domain/call.ts';
import { z } from '@hono/zod-openapi';
import { DISPOSITIONS } from '../../domain/shared/disposition.ts';
import { SUPPORTED_LANGUAGES } from '../../domain/shared/language.ts';
import { E164_PATTERN } from '../../domain/shared/phone.ts';
import { Timestamp, listEnvelope, PaginationQuery } from './common.ts';
import { TimeRangeQuery } from './time-range.ts';

/** Calls: the single-call body, the full call, the list item (exactly the spec's list fields) and the list query. */

const ContactSchema = z
  .object({ phone: z.string().openapi({ example: '+919876543210' }), name: z.string().openapi({ example: 'Asha' }) })
  .openapi('CallContact');

const Disposition = z.enum(DISPOSITIONS);
const CallStatus = z.enum(['in_progress', 'completed', 'failed']);

/** A metadata value becomes text in the agent's sentence: scalars only. */
const MetadataValue = z.union([z.string().max(1_000), z.number(), z.boolean(), z.null()], {
  // Said plainly: "one of the documented shapes" told a client nothing about a nested object or a list here.
  error: 'a string of at most 1000 characters, a number, a boolean or null (no nested object or list)',
});
export const MAX_METADATA_KEYS = 50;

export const PlaceCallBody = z
  .strictObject({
    // `pattern` and `enum` declare what the call aggregate checks (the same E164_PATTERN and language list).
    phone: z.string().openapi({ description: 'E.164.', pattern: E164_PATTERN.source, example: '+919876543210' }),
    name: z.string().openapi({ description: 'Used for personalisation ({name}).', example: 'Asha' }),
    script_id: z.string().openapi({ description: 'A script of the workspace with `single_call_enabled: true`.', example: 'scr_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    language: z.string().openapi({ description: 'BCP-47.', enum: [...SUPPORTED_LANGUAGES], example: 'hi-IN' }),
    metadata: z
      .record(z.string(), MetadataValue)
      .optional()
      .openapi({
        description: `Custom variables for the script (\`{key}\`), at most ${MAX_METADATA_KEYS} keys with string, number, boolean or null values. Every variable the script uses must be here.`,
        example: { amount: 50000, lender: 'Sahay Finance' },
      }),
    recording_enabled: z.boolean().optional().openapi({ description: 'Record the call if answered (default true).' }),
    caller_id: z.string().nullable().optional().openapi({ description: 'E.164 caller ID the customer sees (SIP From and P-Asserted-Identity); default: the trunk\'s `SIP_CALLER_ID`. The carrier must own the number.', pattern: E164_PATTERN.source, example: '+911140000000' }),
    agent_id: z.string().nullable().optional().openapi({ description: 'A manually dialed call: the human agent (agt_) placing it; analytics count the call for that agent.', example: 'agt_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    qa_scorecard_id: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "The QA scorecard the call's transcript is scored against (default: the workspace's default scorecard, if any).", example: 'qsc_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    purpose: z.string().optional().openapi({ description: 'Why the call is made: decides which compliance packs apply (docs/compliance.md). Default `service`.', enum: [...CALL_PURPOSES], default: 'service' }),
    timezone: z.string().optional().openapi({ description: "The person's IANA time zone, for the compliance calling windows (default: the pack's default_timezone, Asia/Kolkata).", example: 'Asia/Kolkata' }),
    consent: z
      .unknown()
      .optional()
      .openapi({ type: 'object', description: 'The consent on record, `{given_at, purpose}`: a promotional call needs one under the in-trai pack.', example: { given_at: '2026-01-15T10:00:00+05:30', purpose: 'promotional' } } as never),
  })
  .openapi('PlaceCall');

const EscalationSchema = z
  .object({
    escalation_reason: z.enum(['customer_requested_agent']),
    escalated_at: Timestamp,
    summary: z.string().openapi({ description: 'One line on the conversation before the customer asked for a person.' }),
    agent_id: z.string().nullable().openapi({ description: 'The human agent the call was handed to: an available agent who speaks the call\'s language, least recently assigned first. Null when none was available.' }),
    unassigned_reason: z
      .enum(['no_available_agent'])
      .nullable()
      .openapi({ description: 'Why no agent took the call (`no_available_agent`: nobody available speaks its language); null when one did.' }),
  })
  .openapi('CallEscalation');

export const CallTransferSchema = z
  .object({
    agent_id: z.string().openapi({ description: 'The escalation\'s agent, dialled as a second leg (their `sip_uri`, or `phone` through the trunk).' }),
    transferred_at: Timestamp.openapi({ description: 'When the agent\'s leg was dialled.' }),
    agent_answered_at: Timestamp.nullable().openapi({
      description: 'When the agent answered (then heard the whispered summary and was bridged to the customer); null when they did not answer within the answer limit: the customer heard the fallback and the call ended `callback`.',
    }),
  })
  .openapi('CallTransfer');

export const CallSchema = z
  .object({
    id: z.string().openapi({ example: 'cal_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    campaign_id: z.string().nullable().openapi({ description: 'Null for calls created by POST /v1/calls.' }),
    contact: ContactSchema,
    status: CallStatus,
    disposition: Disposition.nullable().openapi({ description: 'Null while in_progress. A failed call has not_reachable.' }),
    duration_seconds: z.int().openapi({ description: 'From answer to end, whole seconds; 0 when not connected.' }),
    language: z.string(),
    started_at: Timestamp.openapi({ description: 'When the dial attempt began.' }),
    ended_at: Timestamp.nullable(),
    transcript_job_id: z.string().nullable().openapi({ description: 'The transcript job of an answered call; null otherwise.' }),
    recording_url: z.string().nullable().openapi({ description: 'Signed URL of the WAV (agent left, customer right), valid 1 hour from this response; null when recording was off or the call was not connected.' }),
    script_id: z.string(),
    script_version: z.int(),
    attempt: z.int().nullable().openapi({ description: 'Attempt number of the campaign contact (1 = first); null for a single call.' }),
    answered_at: Timestamp.nullable(),
    caller_id: z.string().nullable().openapi({ description: 'E.164 caller ID the call was placed with; null: the trunk default (SIP_CALLER_ID).' }),
    answered_by: z
      .enum(ANSWERED_BY)
      .nullable()
      .openapi({
        description:
          'Answering-machine detection on a SIP call (docs/telephony.md): `machine` (the call ends `completed` with `not_reachable` and is retried like no answer), `human`, or `unknown` (nothing said within 4 s; the script ran). Null when it did not run: not answered, the sandbox, or SIP_AMD=false.',
      }),
    agent_id: z.string().nullable().openapi({ description: 'The human agent who placed the call (POST /v1/calls `agent_id`) or took it over on escalation; null when only the voice agent spoke.' }),
    escalation: EscalationSchema.nullable().openapi({ description: 'Set when the customer asked for a human agent (disposition escalated).' }),
    transfer: CallTransferSchema.nullable().openapi({
      description: 'Beyond the spec: the warm transfer of an escalated SIP call to its agent (docs/telephony.md, "Warm transfer"); null when none was made (not escalated, no agent, the sandbox).',
    }),
    failure_reason: z
      .enum(['invalid_number', 'carrier_error', 'interrupted', 'number_suppressed'])
      .nullable()
      .openapi({ description: 'Why a failed call failed; null unless status is failed. `number_suppressed`: the number went on the do-not-call list after the call was placed and before it was dialed; it was not dialed.' }),
  })
  .openapi('Call');

/** The spec: "The single-call creation response shows all fields except duration_seconds". */
export const PlacedCallSchema = CallSchema.omit({ duration_seconds: true }).openapi('PlacedCall');

export const CallListItemSchema = CallSchema.pick({
  id: true,
  campaign_id: true,
  contact: true,
  status: true,
  disposition: true,
  duration_seconds: true,
  language: true,
  started_at: true,
  ended_at: true,
}).openapi('CallListItem');

export const CallListSchema = listEnvelope(CallListItemSchema, 'CallList');

export const CallListQuery = PaginationQuery.extend({
  campaign_id: z.string().min(1).max(100).optional().openapi({ description: 'Only calls of this campaign.' }),
  disposition: Disposition.optional(),
  language: z.string().optional().openapi({ description: 'BCP-47, e.g. hi-IN.' }),
  agent_id: z.string().min(1).max(100).optional().openapi({ description: 'Beyond the spec: only calls of this human agent (placed by them, or handed to them on escalation).' }),
  ...TimeRangeQuery,
});
