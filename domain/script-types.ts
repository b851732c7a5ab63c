import type { Disposition } from './shared/disposition.ts';

/**
 * The voice script a campaign or a single call follows. The HTTP layer validates the body (zod) and the script
 * module stores it as an event; the conversation engine runs it. Steps run from the first one; each says its
 * `say` text (a template, see script-template.ts), optionally listens and routes on the answer, then goes to
 * `next` or ends. The graph rules (unique ids, `next` targets, reachability) are `validateScript` in script.ts.
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
  /** Keypad keys that select this route too: one key ("1") or an entry of up to 8 ("1234", ended by # or a pause). */
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
