import { CHECK_TYPES, MAX_PARAMETERS } from '../../infra/analysis/scorecard-schema.ts';

/**
 * The scorecard parameter editor's form, as data, like script-form.ts: fields are named by their path in the API
 * body (`parameters[1].check.phrases.hi`), so the API's error `details.field` names the input to show it at. The
 * editor only converts between the form and the body; every rule is the API's (the scorer's own schema).
 */

/** The languages offered a phrase list (the subtags the analysis module keys phrases by). */
export const PHRASE_LANGUAGES = ['en', 'hi', 'mr', 'ta', 'te'] as const;
/** The numeric settings of each check type; only the chosen type's are sent. */
export const CHECK_NUMBERS: Record<(typeof CHECK_TYPES)[number], readonly string[]> = {
  agent_says: ['within_seconds', 'in_last_seconds'],
  agent_avoids: [],
  customer_says: [],
  talk_ratio: ['max_agent_share', 'min_agent_share'],
  max_silence: ['max_seconds'],
};
const PHRASE_TYPES = new Set(['agent_says', 'agent_avoids', 'customer_says']);
export const usesPhrases = (type: string) => PHRASE_TYPES.has(type);
export const NUMBER_FIELDS = [...new Set(Object.values(CHECK_NUMBERS).flat())];

export interface ParameterDraft {
  name: string;
  description: string;
  max_score: string;
  type: string;
  /** Language subtag → phrases, comma-separated as typed. Languages beyond PHRASE_LANGUAGES are kept as they came. */
  phrases: Record<string, string>;
  numbers: Record<string, string>;
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

export function draftsFromParameters(parameters: unknown): ParameterDraft[] {
  if (!Array.isArray(parameters)) return [];
  return parameters.map((raw) => {
    const parameter = (raw ?? {}) as Record<string, unknown>;
    const check = (parameter.check ?? {}) as Record<string, unknown>;
    const phrases: Record<string, string> = {};
    for (const [language, list] of Object.entries((check.phrases ?? {}) as Record<string, unknown>)) phrases[language] = Array.isArray(list) ? list.map(String).join(', ') : text(list);
    const numbers: Record<string, string> = {};
    for (const field of NUMBER_FIELDS) if (check[field] !== undefined) numbers[field] = text(check[field]);
    return { name: text(parameter.name), description: text(parameter.description), max_score: text(parameter.max_score), type: text(check.type), phrases, numbers };
  });
}

const numberOr = (value: string) => (value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value);

/** The API body's `parameters`: only the chosen check type's settings; empty fields left out. */
export function parametersFromDrafts(drafts: readonly ParameterDraft[]): unknown[] {
  return drafts.map((draft) => {
    const check: Record<string, unknown> = { type: draft.type };
    if (usesPhrases(draft.type)) {
      const phrases: Record<string, string[]> = {};
      for (const [language, typed] of Object.entries(draft.phrases)) {
        const list = typed.split(',').map((phrase) => phrase.trim()).filter(Boolean);
        if (list.length) phrases[language] = list;
      }
      check.phrases = phrases;
    }
    for (const field of CHECK_NUMBERS[draft.type as keyof typeof CHECK_NUMBERS] ?? []) {
      const value = draft.numbers[field] ?? '';
      if (value.trim() !== '') check[field] = numberOr(value);
    }
    return { name: draft.name, ...(draft.description.trim() ? { description: draft.description } : {}), max_score: numberOr(draft.max_score), check };
  });
}

const FIELD = /^parameters\[(\d{1,2})\]\.(name|description|max_score|check\.type|check\.phrases\.([a-z]{2,3})|check\.([a-z_]+))$/;

export function draftsFromForm(form: Record<string, unknown>): ParameterDraft[] {
  const drafts: ParameterDraft[] = [];
  for (const [name, raw] of Object.entries(form)) {
    const match = FIELD.exec(name);
    if (!match || Number(match[1]) >= MAX_PARAMETERS) continue;
    const value = typeof raw === 'string' ? raw : '';
    const draft = (drafts[Number(match[1])] ??= { name: '', description: '', max_score: '', type: '', phrases: {}, numbers: {} });
    const field = match[2]!;
    if (field === 'name' || field === 'description' || field === 'max_score') draft[field] = value;
    else if (field === 'check.type') draft.type = value.trim();
    else if (match[3]) draft.phrases[match[3]] = value;
    else if (match[4] && NUMBER_FIELDS.includes(match[4])) draft.numbers[match[4]] = value.trim();
  }
  return drafts.filter(Boolean);
}

/** `add`, `remove:2`, `up:2`, `down:2`; anything else changes nothing. Returns new drafts. */
export function applyParameterEdit(drafts: readonly ParameterDraft[], op: string): ParameterDraft[] {
  const list = [...drafts];
  const [name, first] = op.split(':');
  const index = Number(first);
  const valid = Number.isInteger(index) && index >= 0 && index < list.length;
  if (name === 'add' && list.length < MAX_PARAMETERS) list.push({ name: '', description: '', max_score: '10', type: 'agent_says', phrases: {}, numbers: {} });
  else if (name === 'remove' && valid && list.length > 1) list.splice(index, 1);
  else if (name === 'up' && valid && index > 0) [list[index - 1], list[index]] = [list[index]!, list[index - 1]!];
  else if (name === 'down' && valid && index < list.length - 1) [list[index], list[index + 1]] = [list[index + 1]!, list[index]!];
  return list;
}

/** Where an API error goes: the input it names (a phrase's index folded into its language's list), else above. */
export function parameterInputOfError(field: unknown, drafts: readonly ParameterDraft[]): string | undefined {
  if (typeof field !== 'string') return undefined;
  const normal = field.replace(/(\.phrases\.[a-z]{2,3})\[\d+\]$/, '$1');
  const match = FIELD.exec(normal);
  return match && Number(match[1]) < drafts.length ? normal : undefined;
}
