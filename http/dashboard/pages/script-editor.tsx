import type { Child } from 'hono/jsx';
import { SCRIPT_INTENTS } from '../../../domain/script-types.ts';
import { DISPOSITIONS } from '../../../domain/shared/disposition.ts';
import type { ApiResult } from '../api-client.ts';
import { inputIdOf, MAX_ROUTES, MAX_STEPS, type StepDraft } from '../script-form.ts';

type ApiError = Extract<ApiResult<unknown>, { ok: false }>['error'];

/** Every input the editor renders for these drafts, by name (the API field path). */
export function editorFieldNames(drafts: readonly StepDraft[]): Set<string> {
  const names = new Set<string>();
  drafts.forEach((step, index) => {
    const at = `steps[${index}]`;
    for (const field of ['id', 'say', 'next', 'end', 'disposition']) names.add(`${at}.${field}`);
    if (!step.listen) return;
    for (const field of ['timeout_seconds', 'no_input.retries', 'no_input.disposition', 'no_input.next']) names.add(`${at}.listen.${field}`);
    step.listen.routes.forEach((_, route) => {
      for (const field of ['intent', 'dtmf', 'keywords', 'disposition', 'next', 'escalate']) names.add(`${at}.listen.routes[${route}].${field}`);
    });
  });
  return names;
}

/** Where an API error goes: the input it names, else the step it is in, else above the steps. */
export function placeError(field: unknown, drafts: readonly StepDraft[]): { input?: string; step?: number } {
  if (typeof field !== 'string') return {};
  const normal = field.replace(/(\.keywords)\[\d+\]$/, '$1');
  if (editorFieldNames(drafts).has(normal)) return { input: normal };
  const step = /^steps\[(\d+)\]/.exec(field);
  if (step && Number(step[1]) < drafts.length) return { step: Number(step[1]) };
  return {};
}

/**
 * The steps as a form: one fieldset per step with its fields, its listening (routes and the no-input route), and
 * buttons to add, remove and move. The buttons submit the whole form with an `op`: without JavaScript the page comes
 * back re-rendered with the change; with htmx (`hx-post` + `hx-vals`) only <main> is swapped. Nothing is saved
 * until "Create"/"Save" is pressed.
 */
export function StepsEditor({ drafts, action, error }: { drafts: StepDraft[]; action: string; error?: ApiError }) {
  const place = error ? placeError(error.details.field, drafts) : {};
  const ids = [...new Set(drafts.map((step) => step.id).filter(Boolean))];
  const messageAt = (name: string) => (place.input === name ? error!.message : undefined);
  const opButton = (op: string, label: string, described: string, kind = 'secondary') => (
    <button type="submit" name="op" value={op} class={`${kind} small`} formnovalidate aria-label={`${label} (${described})`} hx-post={action} hx-vals={JSON.stringify({ op })} hx-target="main" hx-select="main" hx-swap="outerHTML">
      {label}
    </button>
  );
  const field = (name: string, label: string, control: (id: string, invalid: boolean) => Child) => {
    const id = inputIdOf(name);
    const message = messageAt(name);
    return (
      <div class={message ? 'field invalid' : 'field'}>
        <label for={id}>{label}</label>
        {control(id, Boolean(message))}
        {message ? <p class="field-error" id={`${id}-error`} role="alert">{message}</p> : null}
      </div>
    );
  };
  const invalidProps = (id: string, invalid: boolean) => (invalid ? { 'aria-invalid': 'true', 'aria-describedby': `${id}-error` } : {});
  const stepSelect = (name: string, value: string, label: string, none: string) =>
    field(name, label, (id, invalid) => (
      <select id={id} name={name} {...invalidProps(id, invalid)}>
        <option value="">{none}</option>
        {[...ids, ...(value && !ids.includes(value) ? [value] : [])].map((target) => <option value={target} selected={value === target}>{target}</option>)}
      </select>
    ));
  const dispositionSelect = (name: string, value: string, label: string) =>
    field(name, label, (id, invalid) => (
      <select id={id} name={name} {...invalidProps(id, invalid)}>
        <option value="">none</option>
        {DISPOSITIONS.map((disposition) => <option value={disposition} selected={value === disposition}>{disposition.replaceAll('_', ' ')}</option>)}
      </select>
    ));
  return (
    <div class="steps-editor" data-testid="steps-editor">
      {error && place.input === undefined && place.step === undefined ? (
        <p class="flash flash-error" role="alert">{error.message}{typeof error.details.field === 'string' ? ` (${error.details.field})` : ''}</p>
      ) : null}
      {drafts.map((step, index) => {
        const at = `steps[${index}]`;
        const described = `step ${index + 1}${step.id ? `, ${step.id}` : ''}`;
        return (
          <fieldset class={place.step === index ? 'step invalid' : 'step'} id={`step-${index}`}>
            <legend>Step {index + 1}{index === 0 ? ' (the call starts here)' : ''}</legend>
            {place.step === index ? <p class="field-error" role="alert">{error!.message}</p> : null}
            <div class="row">
              {field(`${at}.id`, 'Step id', (id, invalid) => <input id={id} name={`${at}.id`} value={step.id} required maxlength={64} {...invalidProps(id, invalid)} />)}
              {dispositionSelect(`${at}.disposition`, step.disposition, 'Disposition when reached')}
            </div>
            {field(`${at}.say`, 'The agent says ({name}, {amount}… are the contact\'s columns)', (id, invalid) => <textarea id={id} name={`${at}.say`} rows={3} required {...invalidProps(id, invalid)}>{step.say}</textarea>)}
            <div class="row">
              {stepSelect(`${at}.next`, step.next, 'Then go to', 'the route decides / none')}
              {field(`${at}.end`, 'End the call after this step', (id) => (
                <select id={id} name={`${at}.end`}><option value="false">no</option><option value="true" selected={step.end}>yes</option></select>
              ))}
            </div>
            {step.listen ? (
              <fieldset class="listen">
                <legend>Listen for the reply</legend>
                <input type="hidden" name={`${at}.has_listen`} value="true" />
                {field(`${at}.listen.timeout_seconds`, 'Silence counts as no reply after (seconds)', (id, invalid) => <input id={id} name={`${at}.listen.timeout_seconds`} value={step.listen!.timeout_seconds} inputmode="decimal" {...invalidProps(id, invalid)} />)}
                {step.listen.routes.map((route, routeIndex) => {
                  const r = `${at}.listen.routes[${routeIndex}]`;
                  return (
                    <div class="route">
                      <div class="row">
                        {field(`${r}.intent`, `Route ${routeIndex + 1}: when the reply means`, (id, invalid) => (
                          <select id={id} name={`${r}.intent`} {...invalidProps(id, invalid)}>{SCRIPT_INTENTS.map((intent) => <option value={intent} selected={route.intent === intent}>{intent.replaceAll('_', ' ')}</option>)}</select>
                        ))}
                        {field(`${r}.dtmf`, 'or the key pressed', (id, invalid) => <input id={id} name={`${r}.dtmf`} value={route.dtmf} size={3} {...invalidProps(id, invalid)} />)}
                        {field(`${r}.keywords`, 'Extra words (comma-separated)', (id, invalid) => <input id={id} name={`${r}.keywords`} value={route.keywords} {...invalidProps(id, invalid)} />)}
                      </div>
                      <div class="row">
                        {dispositionSelect(`${r}.disposition`, route.disposition, 'Disposition')}
                        {stepSelect(`${r}.next`, route.next, 'Go to', 'the step\'s next')}
                        {field(`${r}.escalate`, 'Hand to a person', (id) => (
                          <select id={id} name={`${r}.escalate`}><option value="false">no</option><option value="true" selected={route.escalate}>yes</option></select>
                        ))}
                        {step.listen!.routes.length > 1 ? <div class="field">{opButton(`remove-route:${index}:${routeIndex}`, 'Remove route', `route ${routeIndex + 1} of ${described}`, 'secondary')}</div> : null}
                      </div>
                    </div>
                  );
                })}
                <div class="row">
                  {field(`${at}.listen.no_input.retries`, 'No reply: ask again (times)', (id, invalid) => <input id={id} name={`${at}.listen.no_input.retries`} value={step.listen!.no_input.retries} inputmode="numeric" size={3} {...invalidProps(id, invalid)} />)}
                  {dispositionSelect(`${at}.listen.no_input.disposition`, step.listen.no_input.disposition, 'then disposition')}
                  {stepSelect(`${at}.listen.no_input.next`, step.listen.no_input.next, 'then go to', 'the step\'s next')}
                </div>
                <div class="actions">
                  {step.listen.routes.length < MAX_ROUTES ? opButton(`add-route:${index}`, 'Add route', described) : null}
                  {opButton(`remove-listen:${index}`, 'Stop listening', described)}
                </div>
              </fieldset>
            ) : null}
            <div class="actions">
              {!step.listen ? opButton(`add-listen:${index}`, 'Listen for a reply', described) : null}
              {index > 0 ? opButton(`up:${index}`, 'Move up', described) : null}
              {index < drafts.length - 1 ? opButton(`down:${index}`, 'Move down', described) : null}
              {drafts.length > 1 ? opButton(`remove-step:${index}`, 'Remove step', described, 'danger') : null}
            </div>
          </fieldset>
        );
      })}
      {drafts.length < MAX_STEPS ? <div class="actions">{opButton('add-step', 'Add step', 'at the end')}</div> : null}
    </div>
  );
}
