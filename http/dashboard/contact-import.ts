import { parse } from 'csv-parse';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { validateContacts } from '../../domain/campaign/validation.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import { MAX_CONTACTS_PER_REQUEST } from '../schemas/campaign.ts';

/**
 * A CSV of contacts, parsed, mapped to the fields a campaign needs (phone, name and the script's variables), and
 * checked row by row before anything is submitted. Each row is checked by the campaign domain's own
 * `validateContacts` (the check the API runs, which stops at the first offender), so the page reports every bad
 * row with the API's own words; duplicates and missing variables are checked across rows here the same way.
 */
export interface ParsedCsv {
  header: string[];
  rows: string[][];
}

export class CsvImportError extends Error {}

/**
 * A file of 100,000 rows takes about a second to parse and half a second to check: both run in slices (64 KB of
 * text, 2,000 rows) with a turn of the event loop between them, so other requests are served meanwhile.
 */
const PARSE_SLICE_CHARACTERS = 64 * 1024;
const CHECK_SLICE_ROWS = 2_000;

export async function parseContactsCsv(text: string): Promise<ParsedCsv> {
  const records: string[][] = [];
  const parser = parse({ skip_empty_lines: true, relax_column_count: true, trim: true, max_record_size: 64 * 1024, bom: true });
  let failure: Error | undefined;
  parser.on('readable', () => {
    for (let record: string[] | null; (record = parser.read() as string[] | null) !== null; ) records.push(record);
  });
  parser.on('error', (error: Error) => (failure ??= error));
  const ended = new Promise<void>((resolve) => parser.once('end', resolve).once('error', () => resolve()));
  for (let at = 0; at < text.length && !failure; at += PARSE_SLICE_CHARACTERS) {
    parser.write(text.slice(at, at + PARSE_SLICE_CHARACTERS));
    await nextTurn();
    if (records.length > MAX_CONTACTS_PER_REQUEST + 1) failure = new Error('too many rows');
  }
  if (!failure) parser.end();
  await (failure ? Promise.resolve() : ended);
  if (failure) {
    if (records.length > MAX_CONTACTS_PER_REQUEST + 1) throw new CsvImportError(`The file has more than ${MAX_CONTACTS_PER_REQUEST} contacts; a campaign takes at most ${MAX_CONTACTS_PER_REQUEST}.`);
    throw new CsvImportError(`The file is not a readable CSV: ${failure.message}`);
  }
  const [header, ...rows] = records;
  if (!header || header.length === 0) throw new CsvImportError('The file is empty: the first line must name the columns (for example phone,name,amount).');
  if (rows.length === 0) throw new CsvImportError('The file has a header line but no contacts.');
  if (rows.length > MAX_CONTACTS_PER_REQUEST) throw new CsvImportError(`The file has ${rows.length} contacts; a campaign takes at most ${MAX_CONTACTS_PER_REQUEST}.`);
  return { header, rows };
}

/** Target field → CSV column index. */
export type ColumnMapping = Record<string, number>;

/**
 * Columns a file may have but need not (each can be left unmapped): the contact's own time zone (`timezone`, which
 * the compliance calling windows use) and when the contact consented (`consent_given_at`; sent as the reserved
 * `consent` field, `{given_at, purpose}`, for the campaign's purpose, which a promotional campaign needs).
 */
export const OPTIONAL_TARGETS = ['timezone', 'consent_given_at'] as const;

/** The optional columns for a script: those it does not use itself (a script that says {timezone} needs it). */
export function optionalTargets(variables: readonly string[]): string[] {
  return OPTIONAL_TARGETS.filter((target) => !variables.includes(target));
}

/** The fields to map: phone, name, the script's variables (all required), then the optional columns. */
export function mappingTargets(variables: readonly string[]): string[] {
  return ['phone', 'name', ...variables.filter((variable) => variable !== 'phone' && variable !== 'name'), ...optionalTargets(variables)];
}

/** A first guess: a column whose header is the field's name (case and spaces ignored), else a phone/mobile column. */
export function guessMapping(header: readonly string[], targets: readonly string[]): ColumnMapping {
  const normal = (text: string) => text.toLowerCase().replaceAll(/[^a-z0-9]/g, '');
  const mapping: ColumnMapping = {};
  for (const target of targets) {
    let index = header.findIndex((column) => normal(column) === normal(target));
    if (index === -1 && target === 'phone') index = header.findIndex((column) => /phone|mobile|number|msisdn/i.test(column));
    if (index === -1 && target === 'consent_given_at') index = header.findIndex((column) => /consent/i.test(column));
    if (index !== -1) mapping[target] = index;
  }
  return mapping;
}

export interface RowError {
  /** The line in the file (the header is line 1). */
  line: number;
  field: string;
  message: string;
}

export interface MappedContacts {
  contacts: Record<string, unknown>[];
  errors: RowError[];
}

/**
 * The contacts the mapping gives, and every row's problems. An empty cell is a missing value (for an optional
 * column: none for that contact). `purpose` is the campaign's: a consent date is a consent for it.
 */
export async function mapContacts(
  csv: ParsedCsv,
  mapping: ColumnMapping,
  targets: readonly string[],
  { purpose = 'service', optional = OPTIONAL_TARGETS }: { purpose?: string; optional?: readonly string[] } = {},
): Promise<MappedContacts> {
  const isOptional = (target: string) => optional.includes(target);
  const errors: RowError[] = [];
  for (const target of targets) {
    if (mapping[target] === undefined && !isOptional(target)) errors.push({ line: 1, field: target, message: `Choose the column that holds ${target}.` });
  }
  if (errors.length) return { contacts: [], errors };
  const firstLineOf = new Map<string, number>();
  const contacts: Record<string, unknown>[] = [];
  const variables = targets.slice(2).filter((target) => !isOptional(target));
  for (let index = 0; index < csv.rows.length; index++) {
    if (index > 0 && index % CHECK_SLICE_ROWS === 0) await nextTurn();
    const row = csv.rows[index]!;
    const line = index + 2;
    const contact: Record<string, unknown> = {};
    for (const target of targets) {
      if (mapping[target] === undefined) continue;
      const value = row[mapping[target]!] ?? '';
      if (value === '') continue;
      if (target === 'consent_given_at') contact.consent = { given_at: value, purpose };
      else contact[target] = value;
    }
    try {
      validateContacts([contact as { phone: string; name: string }], index);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const field = String(error.details.field ?? '').replace(/^contacts\[\d+\]\.?/, '') || 'row';
      const got = field === 'consent.given_at' ? (contact.consent as { given_at: string }).given_at : contact[field];
      errors.push({ line, field, message: `${field}: expected ${String(error.details.expected ?? error.message)}${typeof got === 'string' ? `, got "${got}"` : ''}` });
    }
    const phone = typeof contact.phone === 'string' ? contact.phone : undefined;
    if (phone !== undefined) {
      const earlier = firstLineOf.get(phone);
      if (earlier !== undefined) errors.push({ line, field: 'phone', message: `phone ${phone} is already on line ${earlier}` });
      else firstLineOf.set(phone, line);
    }
    for (const target of variables) {
      if (contact[target] === undefined) errors.push({ line, field: target, message: `${target}: empty; the script uses {${target}}` });
    }
    contacts.push(contact);
  }
  return { contacts, errors };
}
