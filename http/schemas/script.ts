import { z } from '@hono/zod-openapi';
import { SCRIPT_INTENTS } from '../../domain/script-types.ts';
import { DISPOSITIONS } from '../../domain/shared/disposition.ts';
import { Timestamp, listEnvelope, nameText, optionalIntegerQuery } from './common.ts';

/**
 * The body of POST /v1/scripts and PUT /v1/scripts/{id}: the shape of a script (types, ranges, known fields).
 * The graph rules (unique ids, `next` targets, reachability, an ending step) are the script aggregate's
 * (`validateScript` in domain/script.ts) and fail with the same 400 and a field path.
 */
const StepId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'a step id: 1 to 64 letters, digits, _ or -' })
  .openapi({ example: 'offer' });

const Disposition = z.enum(DISPOSITIONS);

const RouteSchema = z
  .strictObject({
    intent: z.enum(SCRIPT_INTENTS).openapi({ description: 'What the reply means; `keywords` widen what counts as it.' }),
    dtmf: z
      .string()
      .regex(/^(?:[0-9*#]|[0-9*]{2,8})$/, { error: 'one keypad key (0-9, * or #) or 2 to 8 keys of 0-9 and * (# ends an entry)' })
      .optional()
      .openapi({ description: 'Keys that select this route: one key, or an entry of 2 to 8 keys the customer ends with # or a 3 s pause (docs/telephony.md).', example: '1' }),
    keywords: z.array(z.string().trim().min(1).max(100)).max(50).optional().openapi({ description: 'Extra words or phrases, in the call\'s language, that mean this intent.' }),
    disposition: Disposition.optional(),
    next: StepId.optional(),
    escalate: z.boolean().optional().openapi({ description: 'Hand the call to a human agent (disposition `escalated`).' }),
  })
  .openapi('ScriptRoute');

const ListenSchema = z
  .strictObject({
    timeout_seconds: z.number().min(1).max(60).openapi({ description: 'Silence longer than this is no input.', example: 6 }),
    routes: z.array(RouteSchema).min(1).max(20),
    no_input: z
      .strictObject({
        retries: z.int().min(0).max(5).openapi({ description: 'Times the step is repeated before the no-input route is taken.' }),
        disposition: Disposition.optional(),
        next: StepId.optional(),
      })
      .openapi({ description: 'Taken when the customer stays silent or is not understood.' }),
  })
  .openapi('ScriptListen');

export const ScriptStepSchema = z
  .strictObject({
    id: StepId,
    say: z.string().min(1).max(2_000).openapi({ description: 'What the agent says; `{variable}` placeholders are filled from the contact.', example: 'Namaste {name}!' }),
    next: StepId.optional(),
    end: z.boolean().optional().openapi({ description: 'The call ends after this step.' }),
    disposition: Disposition.optional().openapi({ description: 'Disposition set when the call reaches this step.' }),
    listen: ListenSchema.optional(),
  })
  .openapi('ScriptStep');

export const ScriptBody = z
  .strictObject({
    name: nameText().openapi({ example: 'Loan renewal' }),
    single_call_enabled: z.boolean().default(false).openapi({ description: 'Whether POST /v1/calls may use the script.' }),
    steps: z.array(ScriptStepSchema).min(1).max(100).openapi({ description: 'The conversation; it starts at the first step.' }),
  })
  .openapi('ScriptInput');

export const ScriptSchema = z
  .object({
    id: z.string().openapi({ example: 'scr_01jd8k3m9q2x7c4v5b6n8p0r2t' }),
    name: z.string(),
    version: z.int().openapi({ description: 'Starts at 1; every PUT that changes the script adds one.' }),
    single_call_enabled: z.boolean(),
    steps: z.array(ScriptStepSchema),
    variables: z.array(z.string()).openapi({ description: 'Placeholders the `say` texts use, sorted: every contact must carry them.', example: ['amount', 'lender', 'name'] }),
    created_at: Timestamp,
    updated_at: Timestamp.openapi({ description: 'When this version was published.' }),
  })
  .openapi('Script');

/** A list item: the script without its steps (like the spec's call list items, a subset of the full record). */
export const ScriptSummarySchema = ScriptSchema.omit({ steps: true }).openapi('ScriptSummary');

export const ScriptListSchema = listEnvelope(ScriptSummarySchema, 'ScriptList');

export const ScriptVersionQuery = z.object({
  version: optionalIntegerQuery(1, 1_000_000, 'A version number; the latest when omitted.'),
});

export const DeletedScriptSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .openapi('DeletedScript');
