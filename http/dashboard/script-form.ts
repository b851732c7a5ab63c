/**
 * The script step editor's form, as data: one field per API field, named by its path in the API body
 * (`steps[2].listen.routes[0].next`), so the API's error `details.field` names the very input to show it at. A step
 * is kept as typed (strings) until it is sent: the editor never checks a script (that is the API's job), it only
 * turns the form into the body and back, and applies the editing operations (add, remove, move) between renders.
 */

export interface RouteDraft {
  intent: string;
  dtmf: string;
  /** Comma-separated in the form; a list in the API. */
  keywords: string;
  disposition: string;
  next: string;
  escalate: boolean;
}

export interface StepDraft {
  id: string;
  say: string;
  next: string;
  end: boolean;
  disposition: string;
  /** Absent when the step does not listen for a reply. */
  listen?: { timeout_seconds: string; routes: RouteDraft[]; no_input: { retries: string; disposition: string; next: string } };
}

/** The most steps and routes the API takes (http/schemas/script.ts); the editor offers no more. */
export const MAX_STEPS = 100;
export const MAX_ROUTES = 20;

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/** The API's steps (a stored script, or the JSON view's) as drafts. Anything not an object becomes an empty step. */
export function draftsFromSteps(steps: unknown): StepDraft[] {
  if (!Array.isArray(steps)) return [];
  return steps.map((raw) => {
    const step = (raw ?? {}) as Record<string, unknown>;
    const listen = step.listen as Record<string, unknown> | undefined;
    const noInput = (listen?.no_input ?? {}) as Record<string, unknown>;
    return {
      id: text(step.id),
      say: text(step.say),
      next: text(step.next),
      end: step.end === true,
      disposition: text(step.disposition),
      ...(listen
        ? { listen: {
            timeout_seconds: text(listen.timeout_seconds),
            routes: (Array.isArray(listen.routes) ? listen.routes : []).map((rawRoute) => {
              const route = (rawRoute ?? {}) as Record<string, unknown>;
              return {
                intent: text(route.intent),
                dtmf: text(route.dtmf),
                keywords: Array.isArray(route.keywords) ? route.keywords.map(String).join(', ') : text(route.keywords),
                disposition: text(route.disposition),
                next: text(route.next),
                escalate: route.escalate === true,
              };
            }),
            no_input: { retries: text(noInput.retries), disposition: text(noInput.disposition), next: text(noInput.next) },
          } }
        : {}),
    };
  });
}

/** A number typed in a field, or the text itself when it is not one (the API then names the field). */
const numberOr = (value: string) => (value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value);
const optional = <T>(name: string, value: T | '' | false): Record<string, T> => (value === '' || value === false ? {} : { [name]: value as T });

const optionalList = (name: string, list: string[]): Record<string, string[]> => (list.length ? { [name]: list } : {});

/** The API body's `steps` from the drafts: empty optional fields are left out, so the API's rules and defaults apply. */
export function stepsFromDrafts(drafts: readonly StepDraft[]): unknown[] {
  return drafts.map((draft) => ({
    id: draft.id,
    say: draft.say,
    ...optional('next', draft.next),
    ...optional('end', draft.end),
    ...optional('disposition', draft.disposition),
    ...(draft.listen
      ? {
          listen: {
            timeout_seconds: numberOr(draft.listen.timeout_seconds),
            routes: draft.listen.routes.map((route) => ({
              intent: route.intent,
              ...optional('dtmf', route.dtmf),
              ...optionalList('keywords', route.keywords.split(',').map((word) => word.trim()).filter(Boolean)),
              ...optional('disposition', route.disposition),
              ...optional('next', route.next),
              ...optional('escalate', route.escalate),
            })),
            no_input: {
              retries: numberOr(draft.listen.no_input.retries),
              ...optional('disposition', draft.listen.no_input.disposition),
              ...optional('next', draft.listen.no_input.next),
            },
          },
        }
      : {}),
  }));
}

const STEP_FIELD = /^steps\[(\d{1,3})\]\.(.+)$/;
const ROUTE_FIELD = /^listen\.routes\[(\d{1,2})\]\.(intent|dtmf|keywords|disposition|next|escalate)$/;

/** The drafts a submitted editor form holds (fields named by their API path; `has_listen` marks a listening step). */
export function draftsFromForm(form: Record<string, unknown>): StepDraft[] {
  const steps: StepDraft[] = [];
  const stepAt = (index: number) => (steps[index] ??= { id: '', say: '', next: '', end: false, disposition: '' });
  for (const [name, raw] of Object.entries(form)) {
    const match = STEP_FIELD.exec(name);
    if (!match) continue;
    const index = Number(match[1]);
    if (index >= MAX_STEPS) continue;
    const value = typeof raw === 'string' ? raw : Array.isArray(raw) && typeof raw.at(-1) === 'string' ? (raw.at(-1) as string) : '';
    const step = stepAt(index);
    const field = match[2]!;
    if (field === 'id' || field === 'say' || field === 'next' || field === 'disposition') step[field] = value.trim() === '' && field !== 'say' ? '' : field === 'say' ? value : value.trim();
    else if (field === 'end') step.end = value === 'true';
    else if (field === 'has_listen' || field.startsWith('listen.')) {
      step.listen ??= { timeout_seconds: '', routes: [], no_input: { retries: '', disposition: '', next: '' } };
      const route = ROUTE_FIELD.exec(field);
      if (route) {
        const at = Number(route[1]);
        if (at >= MAX_ROUTES) continue;
        const target = (step.listen.routes[at] ??= { intent: '', dtmf: '', keywords: '', disposition: '', next: '', escalate: false });
        const key = route[2] as keyof RouteDraft;
        if (key === 'escalate') target.escalate = value === 'true';
        else target[key] = value.trim();
      } else if (field === 'listen.timeout_seconds') step.listen.timeout_seconds = value.trim();
      else if (field === 'listen.no_input.retries') step.listen.no_input.retries = value.trim();
      else if (field === 'listen.no_input.disposition') step.listen.no_input.disposition = value.trim();
      else if (field === 'listen.no_input.next') step.listen.no_input.next = value.trim();
    }
  }
  // Indices missing from the form (a tampered one) close up instead of leaving holes.
  return steps.filter(Boolean).map((step) => (step.listen ? { ...step, listen: { ...step.listen, routes: step.listen.routes.filter(Boolean) } } : step));
}

const emptyRoute = (): RouteDraft => ({ intent: 'affirm', dtmf: '', keywords: '', disposition: '', next: '', escalate: false });

/**
 * One editing operation, named by the button that asked for it: `add-step`, `remove-step:2`, `up:2`, `down:2`,
 * `add-listen:2`, `remove-listen:2`, `add-route:2`, `remove-route:2:0`. Unknown or out-of-range operations change
 * nothing. Returns new drafts (the input is not changed).
 */
export function applyEdit(drafts: readonly StepDraft[], op: string): StepDraft[] {
  const steps: StepDraft[] = drafts.map(({ listen, ...step }) => (listen ? { ...step, listen: { ...listen, routes: [...listen.routes] } } : step));
  const [name, first, second] = op.split(':');
  const index = Number(first);
  const valid = Number.isInteger(index) && index >= 0 && index < steps.length;
  const step = valid ? steps[index]! : undefined;
  switch (name) {
    case 'add-step':
      if (steps.length < MAX_STEPS) steps.push({ id: `step_${steps.length + 1}`, say: '', next: '', end: true, disposition: '' });
      break;
    case 'remove-step':
      if (valid && steps.length > 1) steps.splice(index, 1);
      break;
    case 'up':
      if (valid && index > 0) [steps[index - 1], steps[index]] = [steps[index]!, steps[index - 1]!];
      break;
    case 'down':
      if (valid && index < steps.length - 1) [steps[index], steps[index + 1]] = [steps[index + 1]!, steps[index]!];
      break;
    case 'add-listen':
      if (step && !step.listen) step.listen = { timeout_seconds: '6', routes: [emptyRoute()], no_input: { retries: '1', disposition: '', next: '' } };
      break;
    case 'remove-listen':
      if (step) delete step.listen;
      break;
    case 'add-route':
      if (step?.listen && step.listen.routes.length < MAX_ROUTES) step.listen.routes.push(emptyRoute());
      break;
    case 'remove-route': {
      const at = Number(second);
      if (step?.listen && Number.isInteger(at) && at >= 0 && at < step.listen.routes.length && step.listen.routes.length > 1) step.listen.routes.splice(at, 1);
      break;
    }
  }
  return steps;
}

/** The input id of an API field path (`steps[0].listen.routes[1].next` → `f-steps-0-listen-routes-1-next`). */
export const inputIdOf = (field: string) => `f-${field.replaceAll(/[^A-Za-z0-9_]+/g, '-').replace(/-$/, '')}`;
