import type { ProcessRunner } from '../runner.ts';
import type { TimerScheduler } from '../timer-scheduler.ts';
import type { LeadershipWork } from './leader-lease.ts';
import type { ProcessCheckpoints } from './lease-decision.ts';

/**
 * The work only a cluster's leader does: firing durable timers (campaign starts and ends, retries, report
 * schedules, webhook back-off) and running the process managers (dialing decisions and calls, transcription,
 * deliveries, reports). A new leader resumes each process manager from the furthest checkpoint known (its own, or
 * the one the last leader published), so what the last leader handled after its last renewal is handled again:
 * process managers are idempotent for that (derived ids; the spec allows a webhook to repeat).
 */
export function singletonWork({ processes, timers }: { processes: ProcessRunner; timers: TimerScheduler }): LeadershipWork {
  return {
    async begin(_term: number, published: ProcessCheckpoints) {
      processes.adoptCheckpoints(published);
      // Timers first: a due timer fires at once, while the process managers' recovery waits for the read models.
      timers.start();
      await processes.start();
    },
    async end() {
      await timers.stop();
      await processes.stop();
    },
    checkpoints: () => processes.checkpoints(),
  };
}
