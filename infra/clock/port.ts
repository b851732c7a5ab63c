import type { Observable } from 'rxjs';

/** All time comes from a Clock: the system clock in production, a manual one in tests and the sandbox. */
export interface Clock {
  readonly kind: 'system' | 'manual';
  now(): Date;
  /** Emits the new time whenever a manual clock is moved; never emits for the system clock. */
  readonly moved: Observable<Date>;
}
