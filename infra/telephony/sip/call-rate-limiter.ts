/**
 * SIP_MAX_CPS: new INVITEs are spaced at least 1/CPS seconds apart, in the order asked (trunks reject or block a
 * burst above their contracted calls per second). Time and sleep are injectable for the unit test.
 */
export class CallRateLimiter {
  private nextSlotMs = 0;
  private readonly intervalMs: number;

  constructor(
    callsPerSecond: number,
    private readonly now: () => number = () => Date.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.intervalMs = 1000 / callsPerSecond;
  }

  /** Resolves when this call may be sent. */
  async acquire(): Promise<void> {
    const now = this.now();
    const slot = Math.max(now, this.nextSlotMs);
    this.nextSlotMs = slot + this.intervalMs;
    if (slot > now) await this.sleep(slot - now);
  }
}
