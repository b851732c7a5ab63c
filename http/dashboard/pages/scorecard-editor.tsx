import { CHECK_TYPES, MAX_PARAMETERS } from '../../../infra/analysis/scorecard-schema.ts';
import type { ApiResult } from '../api-client.ts';
import { inputIdOf } from '../script-form.ts';
import { CHECK_NUMBERS, NUMBER_FIELDS, PHRASE_LANGUAGES, parameterInputOfError, usesPhrases, type ParameterDraft } from '../scorecard-form.ts';

type ApiError = Extract<ApiResult<unknown>, { ok: false }>['error'];

const CHECK_LABEL: Record<(typeof CHECK_TYPES)[number], string> = {
  agent_says: 'the agent says one of the phrases',
  agent_avoids: 'the agent says none of the phrases',
  customer_says: 'the customer says one of the phrases',
  talk_ratio: "the agent's share of talking time is within bounds",
  max_silence: 'no silence is longer than',
};
const NUMBER_LABEL: Record<string, string> = {
  within_seconds: 'said within the first (seconds)',
  in_last_seconds: 'or within the last (seconds)',
  max_agent_share: 'agent share at most (0–1)',
  min_agent_share: 'agent share at least (0–1)',
  max_seconds: 'longest silence (seconds)',
};

/**
 * A scorecard's parameters as a form: name, points (its weight in the score), the check and its phrases per language
 * or its numbers, with buttons to add, remove and reorder (htmx swaps <main>; without JavaScript the page returns
 * re-rendered). Only the chosen check type's fields are sent; the others stay on the page as typed.
 */
export function ParametersEditor({ drafts, action, error }: { drafts: ParameterDraft[]; action: string; error?: ApiError }) {
  const input = error ? parameterInputOfError(error.details.field, drafts) : undefined;
  const total = drafts.reduce((sum, draft) => sum + (Number(draft.max_score) || 0), 0);
  const opButton = (op: string, label: string, described: string, kind = 'secondary') => (
    <button type="submit" name="op" value={op} class={`${kind} small`} formnovalidate aria-label={`${label} (${described})`} hx-post={action} hx-vals={JSON.stringify({ op })} hx-target="main" hx-select="main" hx-swap="outerHTML">
      {label}
    </button>
  );
  const field = (name: string, label: string, value: string, attributes: Record<string, unknown> = {}) => {
    const id = inputIdOf(name);
    const invalid = input === name;
    return (
      <div class={invalid ? 'field invalid' : 'field'}>
        <label for={id}>{label}</label>
        <input id={id} name={name} value={value} {...attributes} {...(invalid ? { 'aria-invalid': 'true', 'aria-describedby': `${id}-error` } : {})} />
        {invalid ? <p class="field-error" id={`${id}-error`} role="alert">{error!.message}</p> : null}
      </div>
    );
  };
  return (
    <div data-testid="parameters-editor">
      {error && !input ? <p class="flash flash-error" role="alert">{error.message}{typeof error.details.field === 'string' ? ` (${error.details.field})` : ''}</p> : null}
      <p class="muted small">A call scores each parameter's points when its check holds; the score is the share of points, out of 100. Points now: {total}.</p>
      {drafts.map((draft, index) => {
        const at = `parameters[${index}]`;
        const described = `parameter ${index + 1}${draft.name ? `, ${draft.name}` : ''}`;
        const typeId = inputIdOf(`${at}.check.type`);
        const languages = [...PHRASE_LANGUAGES, ...Object.keys(draft.phrases).filter((language) => !(PHRASE_LANGUAGES as readonly string[]).includes(language))];
        return (
          <fieldset class="step">
            <legend>Parameter {index + 1}</legend>
            <div class="row">
              {field(`${at}.name`, 'Name', draft.name, { required: true, maxlength: 100 })}
              {field(`${at}.max_score`, 'Points (weight)', draft.max_score, { inputmode: 'decimal', size: 6 })}
              <div class={input === `${at}.check.type` ? 'field invalid' : 'field'}>
                <label for={typeId}>Passes when</label>
                <select id={typeId} name={`${at}.check.type`}>
                  {CHECK_TYPES.map((type) => <option value={type} selected={draft.type === type}>{CHECK_LABEL[type]}</option>)}
                </select>
                {input === `${at}.check.type` ? <p class="field-error" role="alert">{error!.message}</p> : null}
              </div>
            </div>
            {field(`${at}.description`, 'Description (optional)', draft.description, { class: 'wide' })}
            {(() => {
              // The chosen check's fields first; the other types' stay on the page (kept as typed, not sent) but folded away.
              const numbers = CHECK_NUMBERS[draft.type as keyof typeof CHECK_NUMBERS] ?? [];
              const phraseFields = <div class="row">{languages.map((language) => field(`${at}.check.phrases.${language}`, `Phrases in ${language} (comma-separated)`, draft.phrases[language] ?? ''))}</div>;
              const numberFields = (names: readonly string[]) => <div class="row">{names.map((name) => field(`${at}.check.${name}`, NUMBER_LABEL[name] ?? name, draft.numbers[name] ?? '', { inputmode: 'decimal', size: 6 }))}</div>;
              const others = NUMBER_FIELDS.filter((name) => !numbers.includes(name));
              return (
                <>
                  {usesPhrases(draft.type) ? phraseFields : null}
                  {numbers.length ? numberFields(numbers) : null}
                  <details>
                    <summary class="small">Settings of the other check types (not sent with this one)</summary>
                    {usesPhrases(draft.type) ? null : phraseFields}
                    {numberFields(others)}
                  </details>
                </>
              );
            })()}
            <div class="actions">
              {index > 0 ? opButton(`up:${index}`, 'Move up', described) : null}
              {index < drafts.length - 1 ? opButton(`down:${index}`, 'Move down', described) : null}
              {drafts.length > 1 ? opButton(`remove:${index}`, 'Remove parameter', described, 'danger') : null}
            </div>
          </fieldset>
        );
      })}
      {drafts.length < MAX_PARAMETERS ? <div class="actions">{opButton('add', 'Add parameter', 'at the end')}</div> : null}
    </div>
  );
}
