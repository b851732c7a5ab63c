import { stringify } from 'csv-stringify/sync';

/**
 * A report as one CSV file (docs/reports.md, "CSV layout"): RFC 4180 (CRLF line ends, fields with commas, quotes or
 * line breaks quoted), UTF-8 with a byte-order mark so that Excel shows Devanagari and Tamil, and every table of the
 * report in one sheet: the first column `section` names the table a row belongs to (`summary` first), the other
 * columns are the union of the tables' columns in order of first appearance, empty where a table has no such column.
 */
export interface CsvTable {
  name: string;
  columns: Array<{ key: string }>;
  rows: Array<Record<string, string | number | null>>;
}

/**
 * Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return before one) as a
 * formula: a name like `=HYPERLINK(...)` in a contact list must stay text. Such a cell gets a leading `'`, which
 * spreadsheets show as text and do not display. Numbers are written as numbers and need no guard.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function reportCsv(tables: readonly CsvTable[]): Uint8Array {
  const keys: string[] = [];
  for (const table of tables) for (const column of table.columns) if (!keys.includes(column.key)) keys.push(column.key);
  const records: Array<Array<string | number>> = [['section', ...keys]];
  for (const table of tables) {
    for (const row of table.rows) {
      records.push([
        table.name,
        ...keys.map((key) => {
          const value = row[key];
          if (value === null || value === undefined) return '';
          return typeof value === 'number' ? value : neutraliseFormula(value);
        }),
      ]);
    }
  }
  return new TextEncoder().encode(stringify(records, { bom: true, record_delimiter: 'windows', quoted_match: /[\r\n]/, cast: { number: (value) => String(value) } }));
}
