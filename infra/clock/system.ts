import { NEVER } from 'rxjs/internal/observable/never';
import type { Clock } from './port.ts';

export const systemClock: Clock = {
  kind: 'system',
  now: () => new Date(),
  moved: NEVER,
};
