import { isEventOfType } from '../../domain/shared/decider.ts';
import { scriptStream, type ScriptEvent } from '../../domain/script.ts';
import type { Script } from '../../domain/script-types.ts';
import type { EventStore } from '../../infra/eventstore/port.ts';

/**
 * The script version a call is pinned to, read from the script's own stream: the scripts read model may not
 * have caught up with a script created a moment before the call, and the stream keeps every version (a deleted
 * script's too, which a finished campaign may still reference). A version never changes, so it is cached.
 */
export class ScriptVersions {
  private readonly cache = new Map<string, Promise<Script>>();

  constructor(private readonly store: Pick<EventStore, 'readStream'>) {}

  get(scriptId: string, version: number): Promise<Script> {
    const key = `${scriptId}@${version}`;
    let script = this.cache.get(key);
    if (!script) {
      script = this.load(scriptId, version);
      this.cache.set(key, script);
      // A failed read is not remembered: the next call tries again.
      script.catch(() => this.cache.delete(key));
    }
    return script;
  }

  private async load(scriptId: string, version: number): Promise<Script> {
    for (const event of await this.store.readStream(scriptStream(scriptId))) {
      if (!isEventOfType<ScriptEvent, 'ScriptCreated' | 'ScriptVersionPublished'>(event, 'ScriptCreated', 'ScriptVersionPublished')) continue;
      const { data } = event;
      if (data.version === version) return { name: data.name, single_call_enabled: data.single_call_enabled, steps: data.steps };
    }
    throw new Error(`script ${scriptId} has no version ${version}`);
  }
}
