import { z } from '@hono/zod-openapi';
import { Timestamp } from './common.ts';

/** Ten years: far enough for any schedule, retry or expiry a test needs, and far from Date's limits. */
export const MAX_ADVANCE_SECONDS = 315_360_000;

export const AdvanceClockBody = z
  .strictObject({
    advance_seconds: z
      .number()
      .min(0, { error: `a number of seconds from 0 to ${MAX_ADVANCE_SECONDS}` })
      .max(MAX_ADVANCE_SECONDS, { error: `a number of seconds from 0 to ${MAX_ADVANCE_SECONDS}` })
      .openapi({ description: 'How far to move the service clock forward (fractions allowed; the clock keeps milliseconds).', example: 14_400 }),
  })
  .openapi('AdvanceClock');

export const ClockSchema = z.object({ now: Timestamp.openapi({ description: 'The service clock after the move.' }) }).openapi('SandboxClock');
