import type { Clock } from '../../infra/clock/port.ts';
import { ManualClock } from '../../infra/clock/manual.ts';
import { createRouter, defineRoute } from '../define-route.ts';
import { AdvanceClockBody, ClockSchema } from '../schemas/sandbox-clock.ts';

const advanceClock = defineRoute(
  {
    method: 'post',
    path: '/sandbox/clock',
    operationId: 'advanceSandboxClock',
    tags: ['Sandbox'],
    summary: 'Move the service clock forward (CLOCK=manual only)',
    description:
      'Exists only when the server runs with `CLOCK=manual`. Schedules, retries, timers and URL expiry all read this ' +
      'clock, so a four-hour retry interval is tested in milliseconds. Due timers fire right after the move.',
    request: { body: { content: { 'application/json': { schema: AdvanceClockBody } }, required: true } },
    responses: { 200: { description: 'The new time.', content: { 'application/json': { schema: ClockSchema } } } },
  },
  { scope: 'Admin' },
);

/**
 * The sandbox clock endpoint, for a server on a manual clock; `createHttpApp` mounts it only then, so on a system
 * clock the path is an unknown endpoint (404 not_found) like any other.
 */
export function sandboxClockRoutes(clock: ManualClock) {
  const router = createRouter();
  router.openapi(advanceClock, async (c) => {
    const { advance_seconds } = c.req.valid('json');
    return c.json({ now: (await clock.move(advance_seconds)).toISOString() }, 200);
  });
  return router;
}

/** The clock as a manual clock (CLOCK=manual), or null when it is the system clock. */
export function manualClockOf(clock: Clock): ManualClock | null {
  return clock instanceof ManualClock ? clock : null;
}
