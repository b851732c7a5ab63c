/**
 * Script templates: `{name}` and `{any_contact_key}` placeholders in a step's `say` text. A placeholder is a
 * brace pair around an identifier; anything else in braces (`{ }`, `{1,2}`, JSON) is left as written, so scripts
 * may contain literal braces. `{{` and `}}` write a literal brace.
 */
const PLACEHOLDER = /\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Variable names used in a text, each once, in order of first use. */
export function extractVariables(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1];
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

/** Variables a text needs that `values` does not supply (null and undefined count as missing). */
export function missingVariables(text: string, values: Readonly<Record<string, unknown>>): string[] {
  return extractVariables(text).filter((name) => values[name] === undefined || values[name] === null);
}

/**
 * Fills the placeholders. A missing value renders as nothing (and the doubled space it leaves is closed up):
 * a voice agent that says "Hello {name}" aloud is worse than one that says "Hello". Callers that must refuse
 * missing values check `missingVariables` first.
 */
export function renderTemplate(text: string, values: Readonly<Record<string, unknown>>): string {
  let sawMissing = false;
  const rendered = text.replace(PLACEHOLDER, (whole: string, name: string | undefined) => {
    if (whole === '{{') return '{';
    if (whole === '}}') return '}';
    const value = values[name!];
    if (value === undefined || value === null) {
      sawMissing = true;
      return '';
    }
    return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
  return sawMissing ? rendered.replace(/ {2,}/g, ' ').replace(/ ([,.!?।])/g, '$1').trim() : rendered;
}
