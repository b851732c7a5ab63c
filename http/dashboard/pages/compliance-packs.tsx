import { CsrfField, Empty, isAdmin, Time, type Viewer } from '../view.tsx';

/** GET /v1/compliance/settings (the parts the page shows). */
export interface CompliancePack { id: string; version: string; title: string; purposes: string[]; parameters: Record<string, unknown>; rules: { id: string; kind: string; severity: string; description: string }[] }
export interface ComplianceSettings { packs: CompliancePack[]; available_packs: CompliancePack[]; revision: number; updated_at: string | null }

/** What the Admin submitted, kept to show a refused form as typed, with the error at its field. */
export interface PacksFormState {
  enabled: string[];
  values: Record<string, string>;
  error?: { message: string; input?: string };
}

const inputName = (pack: string, parameter: string) => `p.${pack}.${parameter}`;
const inputId = (pack: string, parameter: string) => `cp-${pack}-${parameter}`;
const shown = (value: unknown) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value ?? ''));

/**
 * The PUT /v1/compliance/settings body from the form: the packs ticked, each parameter typed after its default
 * (numbers as numbers, objects as JSON); an empty field is left out so the pack's default applies. Checking the
 * values is the API's job; only what cannot be sent at all (JSON that does not parse) is refused here.
 */
export function packsRequestOf(form: Record<string, unknown>, settings: ComplianceSettings): { body?: { packs: { id: string; parameters: Record<string, unknown> }[] }; state: PacksFormState } {
  const ticked = ([] as unknown[]).concat(form.pack ?? []).filter((value): value is string => typeof value === 'string');
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(form)) if (name.startsWith('p.') && typeof value === 'string') values[name] = value;
  const state: PacksFormState = { enabled: ticked, values };
  const packs: { id: string; parameters: Record<string, unknown> }[] = [];
  for (const id of ticked) {
    const defaults = settings.available_packs.find((pack) => pack.id === id)?.parameters ?? {};
    const parameters: Record<string, unknown> = {};
    for (const [parameter, fallback] of Object.entries(defaults)) {
      const text = (values[inputName(id, parameter)] ?? '').trim();
      if (!text) continue;
      if (typeof fallback === 'number') parameters[parameter] = Number.isFinite(Number(text)) ? Number(text) : text;
      else if (typeof fallback === 'object' && fallback !== null) {
        try {
          parameters[parameter] = JSON.parse(text);
        } catch {
          return { state: { ...state, error: { message: `${parameter} must be JSON, such as ${JSON.stringify(fallback) === '{}' ? '{"service": "1600123456"}' : JSON.stringify(fallback)}.`, input: inputName(id, parameter) } } };
        }
      } else parameters[parameter] = text;
    }
    packs.push({ id, parameters });
  }
  return { body: { packs }, state };
}

/** The input an API error names (`packs[1].parameters.max_attempts_per_day` → that pack's field). */
export function inputOfError(field: unknown, submitted: string[]): string | undefined {
  const match = typeof field === 'string' ? /^packs\[(\d+)\]\.parameters\.([a-z_]+)/.exec(field) : null;
  const pack = match ? submitted[Number(match[1])] : undefined;
  return pack && match ? inputName(pack, match[2]!) : undefined;
}

export function CompliancePacksSection({ viewer, settings, state }: { viewer: Viewer; settings: ComplianceSettings; state?: PacksFormState }) {
  const enabled = new Map(settings.packs.map((pack) => [pack.id, pack]));
  return (
    <section class="card" aria-labelledby="packs-h" data-testid="compliance-packs">
      <h2 id="packs-h">Compliance rule packs</h2>
      <p class="muted small">
        Pre-dial rules apply from the next attempt, post-call rules from the next evaluated call.
        {settings.revision ? <> Changed {settings.revision === 1 ? "once" : `${settings.revision} times`}, last <Time at={settings.updated_at} zone={viewer.timeZone} withZone />.</> : ' The defaults (general only) are in force.'}
      </p>
      {!isAdmin(viewer) ? (
        <>
          {settings.packs.length === 0 ? <Empty><p>No pack is enabled: no compliance check runs.</p></Empty> : null}
          {settings.packs.map((pack) => (
            <div class="pack">
              <h3>{pack.id} <span class="muted small">{pack.version}</span></h3>
              <p class="small">{pack.title}</p>
              <dl class="facts">{Object.entries(pack.parameters).map(([name, value]) => <><dt>{name.replaceAll('_', ' ')}</dt><dd>{shown(value)}</dd></>)}</dl>
            </div>
          ))}
          <p class="muted small">Only an Admin key can change the packs; you are signed in with a {viewer.scope} key.</p>
        </>
      ) : (
        <form method="post" action="/settings/compliance">
          <CsrfField viewer={viewer} />
          {state?.error && !state.error.input ? <p class="flash flash-error" role="alert">{state.error.message}</p> : null}
          {settings.available_packs.map((available) => {
            const on = state ? state.enabled.includes(available.id) : enabled.has(available.id);
            const current = enabled.get(available.id)?.parameters ?? available.parameters;
            return (
              <fieldset class="pack">
                <legend>
                  <label><input type="checkbox" name="pack" value={available.id} checked={on} /> {available.id} <span class="muted small">{available.version}</span></label>
                </legend>
                <p class="small">{available.title} <span class="muted">({available.rules.length} rules; purposes: {available.purposes.join(', ')})</span></p>
                <div class="row">
                  {Object.entries(available.parameters).map(([parameter, fallback]) => {
                    const name = inputName(available.id, parameter);
                    const id = inputId(available.id, parameter);
                    const invalid = state?.error?.input === name;
                    const value = state ? state.values[name] ?? '' : shown(current[parameter]);
                    return (
                      <div class={invalid ? 'field invalid' : 'field'}>
                        <label for={id}>{parameter.replaceAll('_', ' ')}</label>
                        <input id={id} name={name} value={value} type={typeof fallback === 'number' ? 'number' : 'text'} step={typeof fallback === 'number' ? 'any' : undefined} placeholder={shown(fallback)} aria-invalid={invalid ? 'true' : undefined} aria-describedby={invalid ? `${id}-error` : undefined} />
                        {invalid ? <p class="field-error" id={`${id}-error`} role="alert">{state!.error!.message}</p> : null}
                      </div>
                    );
                  })}
                </div>
              </fieldset>
            );
          })}
          <button type="submit">Save compliance packs</button>
        </form>
      )}
    </section>
  );
}
