import { Subject } from 'rxjs/internal/Subject';

/**
 * How far the read models have caught up with the event store (the projection runner answers it): what a writer
 * waits on for read-your-writes, and what recovery waits on before it trusts a read model.
 */
export interface ReadModelProgress {
  /** The position every projection has applied. */
  readonly position: number;
  /** Resolves true once every projection has applied `position`, false after `timeoutMs`. */
  waitForPosition(position: number, timeoutMs?: number): Promise<boolean>;
}

/**
 * The position the read models have applied, and who waits for it: kept by the projection runner when it applies
 * in this thread, and by the projection thread from its worker's reports when it applies in another.
 */
export class AppliedPosition implements ReadModelProgress {
  private readonly progress = new Subject<number>();

  constructor(private applied: number) {}

  get position(): number {
    return this.applied;
  }

  /** Records what is applied now (it may move back: a rebuild starts a projection over). */
  set(position: number): void {
    const advanced = position > this.applied;
    this.applied = position;
    if (advanced) this.progress.next(position);
  }

  onAdvance(listener: (position: number) => void): () => void {
    const subscription = this.progress.subscribe(listener);
    return () => subscription.unsubscribe();
  }

  async waitForPosition(position: number, timeoutMs = 5_000): Promise<boolean> {
    if (this.applied >= position) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        subscription.unsubscribe();
        resolve(false);
      }, timeoutMs);
      const subscription = this.progress.subscribe((applied) => {
        if (applied >= position) {
          clearTimeout(timer);
          subscription.unsubscribe();
          resolve(true);
        }
      });
    });
  }
}
