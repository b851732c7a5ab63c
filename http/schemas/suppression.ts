import { z } from '@hono/zod-openapi';
import { E164_PATTERN } from '../../domain/shared/phone.ts';
import { Timestamp, listEnvelope } from './common.ts';

export const MAX_REASON_LENGTH = 500;

export const SuppressNumberBody = z
  .strictObject({
    // The route checks it with the same pattern (a 400 naming the field).
    phone: z.string().openapi({ description: 'E.164.', pattern: E164_PATTERN.source, example: '+919876543210' }),
    reason: z.string().max(MAX_REASON_LENGTH).nullable().optional().openapi({ description: `Why, for your records (at most ${MAX_REASON_LENGTH} characters).`, example: 'Asked by email on 2026-03-01' }),
  })
  .openapi('SuppressNumber');

export const SuppressionSchema = z
  .object({
    phone: z.string().openapi({ example: '+919876543210' }),
    source: z.enum(['call_outcome', 'opt_out', 'api']).openapi({ description: '`call_outcome`: a call ended with disposition dnd; `opt_out`: the compliance check heard the person ask not to be called again (docs/compliance.md); `api`: added with POST /v1/suppressions.' }),
    reason: z.string().nullable(),
    call_id: z.string().nullable().openapi({ description: 'The call that put the number on the list (source call_outcome).' }),
    suppressed_at: Timestamp,
  })
  .openapi('Suppression');

export const SuppressionListSchema = listEnvelope(SuppressionSchema, 'SuppressionList');

export const UnsuppressedSchema = z.object({ phone: z.string(), deleted: z.literal(true) }).openapi('Unsuppressed');

/** `{phone}` in the path: URL-encoded E.164 (`%2B919876543210`); a literal `+` works too. */
export const PhoneParams = z.object({
  phone: z.string().min(1).max(32).openapi({ param: { name: 'phone', in: 'path' }, example: '%2B919876543210' }),
});
