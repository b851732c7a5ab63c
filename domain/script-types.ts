import { isDisposition, type Disposition } from './shared/disposition.ts';

/**
 * The voice script a campaign or a single call follows. The HTTP layer validates the body (zod) and the script
 * module stores it as an event; the conversation engine runs it. Steps run from the first one; each says its
 * `say` text (a template, see script-template.ts), optionally listens and routes on the answer, then goes to
 * `next` or ends.
 */
export interface Script {
  name: string;
  /** Whether `POST /calls` may use this script (the spec: "configured for single-call use"). */
  single_call_enabled: boolean;
  steps: ScriptStep[];
}

export interface ScriptStep {
  id: string;
  say: string;
  /** The step after this one when it does not listen or its route names no `next`. */
  next?: string;
  /** The call ends after this step is spoken (and its answer routed, when it listens). */
  end?: boolean;
  /** Our extension: the disposition set when the call reaches this step (e.g. a closing step). */
  disposition?: Disposition;
  listen?: ScriptListen;
}

export interface ScriptListen {
  /** Silence longer than this counts as no input. */
  timeout_seconds: number;
  routes: ScriptRoute[];
  /** Taken when the customer stays silent or is not understood, after `retries` re-prompts. */
  no_input: ScriptNoInput;
}

/** What the customer's reply is classified as (the same values as the analysis module's ReplyIntent). */
export const SCRIPT_INTENTS = ['affirm', 'deny', 'callback_later', 'request_human', 'stop_calling', 'wrong_person'] as const;
export type ScriptIntent = (typeof SCRIPT_INTENTS)[number];

export interface ScriptRoute {
  intent: ScriptIntent;
  /** Keypad digits that select this route too (e.g. "1"). */
  dtmf?: string;
  /** Extra words or phrases that mean this route's intent, in the call's language. */
  keywords?: string[];
  disposition?: Disposition;
  next?: string;
  /** Hand the call to a human agent: disposition `escalated`, event `call.escalated`. */
  escalate?: boolean;
}

export interface ScriptNoInput {
  /** Re-prompts (the step's `say` again) before the no-input route is taken. */
  retries: number;
  disposition?: Disposition;
  next?: string;
}

export interface ScriptProblem {
  /** JSON path of the offending field, e.g. `steps[2].listen.routes[0].next`. */
  field: string;
  message: string;
}

/**
 * Structural checks a body schema cannot express: unique step ids, `next` naming an existing step, a route per
 * intent at most once, known dispositions. Returns every problem found (empty: the script is runnable).
 */
export function checkScript(script: Script): ScriptProblem[] {
  const problems: ScriptProblem[] = [];
  if (script.steps.length === 0) problems.push({ field: 'steps', message: 'a script needs at least one step' });
  const ids = new Set<string>();
  script.steps.forEach((step, index) => {
    if (ids.has(step.id)) problems.push({ field: `steps[${index}].id`, message: `duplicate step id ${step.id}` });
    ids.add(step.id);
  });
  const checkNext = (next: string | undefined, field: string) => {
    if (next !== undefined && !ids.has(next)) problems.push({ field, message: `no step with id ${next}` });
  };
  const checkDisposition = (disposition: unknown, field: string) => {
    if (disposition !== undefined && !isDisposition(disposition)) problems.push({ field, message: 'unknown disposition' });
  };
  script.steps.forEach((step, index) => {
    const at = `steps[${index}]`;
    checkNext(step.next, `${at}.next`);
    checkDisposition(step.disposition, `${at}.disposition`);
    if (!step.listen) return;
    const seenIntents = new Set<string>();
    const seenDigits = new Set<string>();
    if (!(step.listen.timeout_seconds > 0)) problems.push({ field: `${at}.listen.timeout_seconds`, message: 'must be positive' });
    step.listen.routes.forEach((route, routeIndex) => {
      const routeAt = `${at}.listen.routes[${routeIndex}]`;
      if (!(SCRIPT_INTENTS as readonly string[]).includes(route.intent)) {
        problems.push({ field: `${routeAt}.intent`, message: `one of ${SCRIPT_INTENTS.join(', ')}` });
      }
      if (seenIntents.has(route.intent)) problems.push({ field: `${routeAt}.intent`, message: `second route for ${route.intent}` });
      seenIntents.add(route.intent);
      if (route.dtmf !== undefined) {
        if (!/^[0-9*#]{1,8}$/.test(route.dtmf)) problems.push({ field: `${routeAt}.dtmf`, message: 'keypad digits 0-9 * #' });
        if (seenDigits.has(route.dtmf)) problems.push({ field: `${routeAt}.dtmf`, message: `digits ${route.dtmf} used twice` });
        seenDigits.add(route.dtmf);
      }
      checkNext(route.next, `${routeAt}.next`);
      checkDisposition(route.disposition, `${routeAt}.disposition`);
    });
    const noInput = step.listen.no_input;
    if (!Number.isInteger(noInput.retries) || noInput.retries < 0 || noInput.retries > 5) {
      problems.push({ field: `${at}.listen.no_input.retries`, message: 'an integer 0 to 5' });
    }
    checkNext(noInput.next, `${at}.listen.no_input.next`);
    checkDisposition(noInput.disposition, `${at}.listen.no_input.disposition`);
  });
  return problems;
}
