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
