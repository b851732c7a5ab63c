import { extractVariables } from './script-template.ts';
import type { Script, ScriptStep } from './script-types.ts';
import type { Decider, DomainEvent } from './shared/decider.ts';
import { alreadyDone, DomainError, invalidState, notFound } from './shared/errors.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * A voice script: a small conversation graph (script-types.ts) kept as numbered versions. Every change publishes
 * a new version and keeps the old ones, because campaigns pin `script_id` + `version` when they start: editing a
 * script never changes what a running campaign says. A script still used by a non-final campaign cannot be
 * deleted; the caller counts those campaigns (a read-model query) and passes the number in on the command, so
 * the decider stays pure.
 */
export type ScriptEvent =
  | DomainEvent<'ScriptCreated', ScriptVersionData & { created_at: string }>
  | DomainEvent<'ScriptVersionPublished', ScriptVersionData & { published_at: string }>
  | DomainEvent<'ScriptDeleted', { script_id: string; workspace_id: string; deleted_at: string }>;

// A type alias, not an interface: event data must be assignable to Record<string, unknown>.
export type ScriptVersionData = {
  script_id: string;
  workspace_id: string;
  version: number;
  name: string;
  single_call_enabled: boolean;
  steps: ScriptStep[];
  /** Template variables the `say` texts use, sorted: what every contact must carry. */
  variables: string[];
};

export type ScriptCommand =
  | { type: 'CreateScript'; scriptId: string; workspaceId: string; script: Script; now: Date }
  | { type: 'PublishScriptVersion'; scriptId: string; workspaceId: string; script: Script; now: Date }
  | { type: 'DeleteScript'; scriptId: string; workspaceId: string; activeCampaigns: number; now: Date };

export interface ScriptState {
  status: 'none' | 'active' | 'deleted';
  scriptId: string;
  workspaceId: string;
  version: number;
  latest: Script | null;
  createdAt: string;
  /** When the latest version was published. */
  updatedAt: string;
}

const scriptStreams = streamCategory('script');
export const scriptStream = scriptStreams.stream;
export const scriptIdOf = scriptStreams.idOf;

/** One reason a script cannot run, with the JSON path of the offending field (`steps[1].listen.routes[2].next`). */
export interface ScriptViolation {
  field: string;
  message: string;
  provided: unknown;
  expected: string;
}

/** The variables of a script: every `{name}` placeholder of every `say`, sorted, each once. */
export function scriptVariables(script: Script): string[] {
  return [...new Set(script.steps.flatMap((step) => extractVariables(step.say)))].sort();
}

/**
 * The graph rules a body schema cannot express, in document order: unique step ids, every `next` names a step,
 * each step either continues or ends, at least one step ends, every step is reachable from the first, keypad
 * digits and intents are unique within one `listen`. Empty: the script is runnable. Field types and value
 * ranges are the HTTP schema's job; this function assumes them.
 */
export function validateScript(script: Script): ScriptViolation[] {
  const violations: ScriptViolation[] = [];
  const { steps } = script;
  if (steps.length === 0) {
    return [{ field: 'steps', message: 'A script needs at least one step.', provided: steps, expected: 'at least one step' }];
  }
  const stepIds = new Set<string>();
  steps.forEach((step, index) => {
    if (stepIds.has(step.id)) {
      violations.push({ field: `steps[${index}].id`, message: `Step id ${step.id} is used twice.`, provided: step.id, expected: 'a step id used by no other step' });
    }
    stepIds.add(step.id);
  });
  const knownIds = [...stepIds].join(', ');
  const checkNext = (next: string | undefined, field: string) => {
    if (next !== undefined && !stepIds.has(next)) {
      violations.push({ field, message: `No step has the id ${next}.`, provided: next, expected: `the id of a step: ${knownIds}` });
    }
  };

  steps.forEach((step, index) => {
    const at = `steps[${index}]`;
    if (step.say.trim() === '') {
      violations.push({ field: `${at}.say`, message: 'A step says something.', provided: step.say, expected: 'a non-empty text' });
    }
    checkNext(step.next, `${at}.next`);
    if (step.end === true && step.next !== undefined) {
      violations.push({ field: `${at}.next`, message: 'A step that ends the call has no next step.', provided: step.next, expected: 'no next on a step with end: true' });
    }
    const continues = step.next !== undefined || step.end === true;
    if (!step.listen) {
      if (!continues) {
        violations.push({ field: `${at}.next`, message: `Step ${step.id} neither continues nor ends.`, provided: null, expected: 'the id of the next step, or end: true' });
      }
      return;
    }
    const intents = new Set<string>();
    const digits = new Set<string>();
    step.listen.routes.forEach((route, routeIndex) => {
      const routeAt = `${at}.listen.routes[${routeIndex}]`;
      if (intents.has(route.intent)) {
        violations.push({ field: `${routeAt}.intent`, message: `Two routes of step ${step.id} listen for ${route.intent}.`, provided: route.intent, expected: 'an intent no other route of this step uses' });
      }
      intents.add(route.intent);
      if (route.dtmf !== undefined) {
        if (digits.has(route.dtmf)) {
          violations.push({ field: `${routeAt}.dtmf`, message: `Two routes of step ${step.id} use the key ${route.dtmf}.`, provided: route.dtmf, expected: 'a key no other route of this step uses' });
        }
        digits.add(route.dtmf);
      }
      checkNext(route.next, `${routeAt}.next`);
      // A route without its own `next` falls back to the step's; a dead end would leave the call hanging.
      if (route.next === undefined && route.escalate !== true && !continues) {
        violations.push({ field: `${routeAt}.next`, message: `Route ${route.intent} of step ${step.id} leads nowhere.`, provided: null, expected: 'the id of a step, escalate: true, or next/end on the step' });
      }
    });
    const noInput = step.listen.no_input;
    checkNext(noInput.next, `${at}.listen.no_input.next`);
    if (noInput.next === undefined && !continues) {
      violations.push({ field: `${at}.listen.no_input.next`, message: `The no-input route of step ${step.id} leads nowhere.`, provided: null, expected: 'the id of a step, or next/end on the step' });
    }
  });

  if (!steps.some((step) => step.end === true)) {
    violations.push({ field: 'steps', message: 'No step ends the call.', provided: null, expected: 'at least one step with end: true' });
  }

  // Reachability only means something once every `next` resolves.
  if (violations.length === 0) {
    const reachable = reachableStepIds(steps);
    steps.forEach((step, index) => {
      if (!reachable.has(step.id)) {
        violations.push({ field: `steps[${index}].id`, message: `Step ${step.id} cannot be reached from the first step.`, provided: step.id, expected: 'a step reachable from the first step' });
      }
    });
  }
  return violations;
}

function reachableStepIds(steps: readonly ScriptStep[]): Set<string> {
  const byId = new Map(steps.map((step) => [step.id, step]));
  const seen = new Set<string>([steps[0]!.id]);
  const queue = [steps[0]!];
  while (queue.length > 0) {
    const step = queue.shift()!;
    const targets = [step.next, ...(step.listen?.routes.map((route) => route.next) ?? []), step.listen?.no_input.next];
    for (const target of targets) {
      if (target === undefined || seen.has(target)) continue;
      seen.add(target);
      queue.push(byId.get(target)!);
    }
  }
  return seen;
}

function assertRunnable(script: Script): void {
  const [first, ...others] = validateScript(script);
  if (first) {
    throw new DomainError('invalid_parameter', first.message, {
      field: first.field,
      provided: first.provided,
      expected: first.expected,
      ...(others.length > 0 ? { other_problems: others.length } : {}),
    });
  }
}

function versionData(scriptId: string, workspaceId: string, version: number, script: Script): ScriptVersionData {
  return {
    script_id: scriptId,
    workspace_id: workspaceId,
    version,
    name: script.name,
    single_call_enabled: script.single_call_enabled,
    steps: script.steps,
    variables: scriptVariables(script),
  };
}

/** Structural equality of plain JSON data (key order does not matter). */
function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  const leftKeys = Object.keys(left).filter((key) => (left as Record<string, unknown>)[key] !== undefined);
  const rightKeys = Object.keys(right).filter((key) => (right as Record<string, unknown>)[key] !== undefined);
  if (leftKeys.length !== rightKeys.length) return false;
  return leftKeys.every((key) => sameJson((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]));
}

export const scriptDecider: Decider<ScriptCommand, ScriptEvent, ScriptState> = {
  initialState: () => ({ status: 'none', scriptId: '', workspaceId: '', version: 0, latest: null, createdAt: '', updatedAt: '' }),

  evolve(state, event) {
    switch (event.type) {
      case 'ScriptCreated': {
        const { script_id, workspace_id, version, name, single_call_enabled, steps, created_at } = event.data;
        const latest = { name, single_call_enabled, steps };
        return { status: 'active', scriptId: script_id, workspaceId: workspace_id, version, latest, createdAt: created_at, updatedAt: created_at };
      }
      case 'ScriptVersionPublished': {
        const { version, name, single_call_enabled, steps, published_at } = event.data;
        return { ...state, version, latest: { name, single_call_enabled, steps }, updatedAt: published_at };
      }
      case 'ScriptDeleted':
        return { ...state, status: 'deleted' };
    }
  },

  decide(command, state) {
    if (command.type === 'CreateScript') {
      if (state.status !== 'none') throw alreadyDone(`Script ${state.scriptId} already exists.`, { id: state.scriptId });
      assertRunnable(command.script);
      const data = versionData(command.scriptId, command.workspaceId, 1, command.script);
      return [{ type: 'ScriptCreated', data: { ...data, created_at: command.now.toISOString() } }];
    }
    // Another workspace's script is reported exactly like one that never existed.
    if (state.status !== 'active' || state.workspaceId !== command.workspaceId) {
      throw notFound('script', command.scriptId);
    }
    switch (command.type) {
      case 'PublishScriptVersion': {
        assertRunnable(command.script);
        // Saving the same content again is not a new version: a retried PUT changes nothing.
        if (state.latest && sameJson(state.latest, command.script)) return [];
        const data = versionData(state.scriptId, state.workspaceId, state.version + 1, command.script);
        return [{ type: 'ScriptVersionPublished', data: { ...data, published_at: command.now.toISOString() } }];
      }
      case 'DeleteScript':
        if (command.activeCampaigns > 0) {
          throw invalidState(`Script ${state.scriptId} is used by ${command.activeCampaigns} campaign(s) that have not finished.`, {
            resource_type: 'script',
            id: state.scriptId,
            active_campaigns: command.activeCampaigns,
          });
        }
        return [{ type: 'ScriptDeleted', data: { script_id: state.scriptId, workspace_id: state.workspaceId, deleted_at: command.now.toISOString() } }];
    }
  },
};
