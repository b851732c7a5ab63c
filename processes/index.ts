import type { Runtime } from '../composition.ts';
import type { ProcessManager } from './process-manager.ts';

/** Every process manager the server runs, built once the runtime exists. */
export function createProcessManagers(_runtime: Runtime): ProcessManager[] {
  return [];
}
