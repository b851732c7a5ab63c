import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { neutraliseFormula, reportCsv } from '../../../infra/reports/csv.ts';

test('cells that spreadsheets would run as formulas are neutralised; numbers and plain text are not', () => {
  for (const dangerous of ['=HYPERLINK("http://x","y")', '+91 98', '-1+2', '@SUM(A1)', '\t=1', '\r=1']) assert.is(neutraliseFormula(dangerous), `'${dangerous}`);
  for (const safe of ['Asha', 'आशा पाटील', '1=1', 'a-b']) assert.is(neutraliseFormula(safe), safe);
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(reportCsv([{ name: 'agents', columns: [{ key: 'name' }, { key: 'score' }], rows: [{ name: '=cmd|"/c calc"!A1', score: -5 }] }]));
  assert.is(text, '\ufeffsection,name,score\r\nagents,"\'=cmd|""/c calc""!A1",-5\r\n');
});

test('RFC 4180: one header, CRLF, quoted commas and line breaks, the union of the tables\' columns, a BOM', () => {
  const bytes = reportCsv([
    { name: 'summary', columns: [{ key: 'label' }, { key: 'value' }], rows: [{ label: 'Calls', value: 3 }] },
    { name: 'by_agent', columns: [{ key: 'agent' }, { key: 'value' }], rows: [{ agent: 'முருகன், செல்வம்', value: null }, { agent: 'two\nlines', value: 1.5 }] },
  ]);
  assert.equal([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.is(new TextDecoder().decode(bytes.slice(3)), 'section,label,value,agent\r\nsummary,Calls,3,\r\nby_agent,,,"முருகன், செல்வம்"\r\nby_agent,,1.5,"two\nlines"\r\n');
});

test.run();
