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

/** The fields to map: phone, name, then the script's variables. */
export function mappingTargets(variables: readonly string[]): string[] {
  return ['phone', 'name', ...variables.filter((variable) => variable !== 'phone' && variable !== 'name')];
}

/** A first guess: a column whose header is the field's name (case and spaces ignored), else a phone/mobile column. */
export function guessMapping(header: readonly string[], targets: readonly string[]): ColumnMapping {
  const normal = (text: string) => text.toLowerCase().replaceAll(/[^a-z0-9]/g, '');
  const mapping: ColumnMapping = {};
  for (const target of targets) {
    let index = header.findIndex((column) => normal(column) === normal(target));
    if (index === -1 && target === 'phone') index = header.findIndex((column) => /phone|mobile|number|msisdn/i.test(column));
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
  contacts: Record<string, string>[];
  errors: RowError[];
}

/** The contacts the mapping gives, and every row's problems. An empty cell is a missing value. */
export async function mapContacts(csv: ParsedCsv, mapping: ColumnMapping, targets: readonly string[]): Promise<MappedContacts> {
  const errors: RowError[] = [];
  for (const target of targets) {
    if (mapping[target] === undefined) errors.push({ line: 1, field: target, message: `Choose the column that holds ${target}.` });
  }
  if (errors.length) return { contacts: [], errors };
  const firstLineOf = new Map<string, number>();
  const contacts: Record<string, string>[] = [];
  for (let index = 0; index < csv.rows.length; index++) {
    if (index > 0 && index % CHECK_SLICE_ROWS === 0) await nextTurn();
    const row = csv.rows[index]!;
    const line = index + 2;
    const contact: Record<string, string> = {};
    for (const target of targets) {
      const value = row[mapping[target]!] ?? '';
      if (value !== '') contact[target] = value;
    }
    try {
      validateContacts([contact as { phone: string; name: string }], index);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const field = String(error.details.field ?? '').replace(/^contacts\[\d+\]\.?/, '') || 'row';
      errors.push({ line, field, message: `${field}: expected ${String(error.details.expected ?? error.message)}${contact[field] !== undefined ? `, got "${contact[field]}"` : ''}` });
    }
    const phone = contact.phone;
    if (phone !== undefined) {
      const earlier = firstLineOf.get(phone);
      if (earlier !== undefined) errors.push({ line, field: 'phone', message: `phone ${phone} is already on line ${earlier}` });
      else firstLineOf.set(phone, line);
    }
    for (const target of targets.slice(2)) {
      if (contact[target] === undefined) errors.push({ line, field: target, message: `${target}: empty; the script uses {${target}}` });
    }
    contacts.push(contact);
  }
  return { contacts, errors };
}
