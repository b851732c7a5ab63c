import Database from 'better-sqlite3';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CsvImportError, guessMapping, mapContacts, mappingTargets, optionalTargets, parseContactsCsv } from '../../http/dashboard/contact-import.ts';
import { highlightRuns } from '../../http/dashboard/highlight.ts';
import { csrfTokenMatches, SESSION_IDLE_MS, SessionStore } from '../../http/dashboard/sessions.ts';

test('a CSV with a BOM, quotes and Indic text parses; its columns are guessed from their names', async () => {
  const csv = await parseContactsCsv('\uFEFFMobile,Name,Amount\n+919810000001,"Sharma, Sunita",5000\n+919810000002,सुनीता,6000\n');
  assert.equal(csv.header, ['Mobile', 'Name', 'Amount']);
  assert.equal(csv.rows[0], ['+919810000001', 'Sharma, Sunita', '5000']);
  const targets = mappingTargets(['amount', 'name']);
  assert.equal(targets, ['phone', 'name', 'amount', 'timezone', 'consent_given_at']);
  assert.equal(guessMapping(csv.header, targets), { phone: 0, name: 1, amount: 2 });
  const mapped = await mapContacts(csv, { phone: 0, name: 1, amount: 2 }, targets);
  assert.equal(mapped.errors, []);
  assert.equal(mapped.contacts[1], { phone: '+919810000002', name: 'सुनीता', amount: '6000' });
});

test('optional columns: the contact\'s zone and a consent date for the campaign\'s purpose; a bad one reported at its line; a script that uses {timezone} needs it', async () => {
  const csv = await parseContactsCsv('phone,name,tz,Consent date\n+919810000001,A,Asia/Dubai,2026-01-15T10:00:00+05:30\n+919810000002,B,,\n+919810000003,C,Mars/Base,yesterday\n');
  const targets = mappingTargets([]);
  const mapping = { ...guessMapping(csv.header, targets), timezone: 2 };
  assert.equal(mapping, { phone: 0, name: 1, consent_given_at: 3, timezone: 2 });
  const mapped = await mapContacts(csv, mapping, targets, { purpose: 'promotional', optional: optionalTargets([]) });
  assert.equal(mapped.contacts[0], { phone: '+919810000001', name: 'A', timezone: 'Asia/Dubai', consent: { given_at: '2026-01-15T10:00:00+05:30', purpose: 'promotional' } });
  assert.equal(mapped.contacts[1], { phone: '+919810000002', name: 'B' }, 'empty cells: no zone, no consent');
  assert.equal(mapped.errors.map((error) => [error.line, error.field]), [[4, 'timezone']], 'the first problem of a row, in the domain\'s words');
  const unmapped = await mapContacts(csv, { phone: 0, name: 1 }, targets, { optional: optionalTargets([]) });
  assert.ok(unmapped.errors.every((error) => error.line !== 1), 'optional columns may stay unmapped');
  assert.equal(optionalTargets(['timezone']), ['consent_given_at']);
  const needed = await mapContacts(csv, { phone: 0, name: 1 }, mappingTargets(['timezone']), { optional: optionalTargets(['timezone']) });
  assert.equal(needed.errors[0], { line: 1, field: 'timezone', message: 'Choose the column that holds timezone.' });
});

test('every bad row is reported with its line, in the campaign domain\'s words', async () => {
  const csv = await parseContactsCsv('phone,name,amount\n+919810000001,A,1\n98100,B,2\n+919810000001,C,3\n+919810000004,,4\n+919810000005,E,\n');
  const mapped = await mapContacts(csv, { phone: 0, name: 1, amount: 2 }, ['phone', 'name', 'amount']);
  assert.equal(
    mapped.errors.map((error) => [error.line, error.field]),
    [[3, 'phone'], [4, 'phone'], [5, 'name'], [6, 'amount']],
  );
  assert.match(mapped.errors[0]!.message, /E\.164/);
  assert.match(mapped.errors[1]!.message, /already on line 2/);
});

const refusal = (text: string) => parseContactsCsv(text).then(() => null, (error: unknown) => error);

test('an unmapped field, an empty file, a header alone, broken quotes and too many rows are refused', async () => {
  const csv = await parseContactsCsv('phone,name\n+919810000001,A\n');
  assert.equal((await mapContacts(csv, { phone: 0 }, ['phone', 'name'])).errors.map((error) => error.field), ['name']);
  assert.instance(await refusal(''), CsvImportError);
  assert.match(String(await refusal('phone,name\n')), /no contacts/);
  assert.instance(await refusal('a,"b\n'), CsvImportError);
  const tooMany = ['phone,name', ...Array.from({ length: 100_001 }, (_, index) => `+9198${String(index).padStart(8, '0')},C`)].join('\n');
  assert.match(String(await refusal(tooMany)), /at most 100000/);
});

test('100,000 rows parse and check without holding the event loop (slices with turns between)', async () => {
  const text = ['phone,name,amount', ...Array.from({ length: 100_000 }, (_, index) => `+9198${String(index).padStart(8, '0')},Customer ${index},${index}`)].join('\n');
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 1);
  const csv = await parseContactsCsv(text);
  const mapped = await mapContacts(csv, { phone: 0, name: 1, amount: 2 }, ['phone', 'name', 'amount']);
  clearInterval(ticker);
  assert.is(mapped.contacts.length, 100_000);
  assert.equal(mapped.errors, []);
  // Timers ran while the file was worked on: dozens of turns of the event loop, not one at the end.
  assert.ok(ticks > 20, `timer turns: ${ticks}`);
});

test('search highlights become runs: marked terms, escaped markdown kept literal, no markup', () => {
  assert.equal(highlightRuns('I want to **renew** my \\*\\*loan\\*\\* <b>'), [
    { text: 'I want to ', marked: false },
    { text: 'renew', marked: true },
    { text: ' my **loan** <b>', marked: false },
  ]);
});

test('sessions: idle expiry, ending, CSRF token compared whole', () => {
  let now = 1_000;
  const sessions = new SessionStore(() => now);
  const { id, session } = sessions.create('key_1', 'ws_1', 'Asia/Kolkata');
  assert.is(sessions.get(id)?.keyId, 'key_1');
  now += SESSION_IDLE_MS - 1;
  assert.ok(sessions.get(id), 'activity keeps it alive');
  now += SESSION_IDLE_MS + 1;
  assert.is(sessions.get(id), undefined, 'idle too long');
  const second = sessions.create('key_1', 'ws_1', 'UTC');
  sessions.end(second.id);
  assert.is(sessions.get(second.id), undefined);
  assert.ok(csrfTokenMatches(session, session.csrfToken));
  assert.not.ok(csrfTokenMatches(session, session.csrfToken.slice(1)));
  assert.not.ok(csrfTokenMatches(session, undefined));
});

test('sessions in the state database: a new store (a restart) finds them; only the id\'s hash, the key id, the zone and last seen are kept', () => {
  const db = new Database(':memory:');
  let now = 1_000;
  const before = new SessionStore(() => now, db);
  const { id, session } = before.create('key_1', 'ws_1', 'Asia/Kolkata');
  before.setTimeZone(id, 'UTC');
  const ended = before.create('key_2', 'ws_1', 'UTC');
  before.end(ended.id);
  const rows = db.prepare('SELECT * FROM dashboard_sessions').all() as Record<string, unknown>[];
  assert.is(rows.length, 1);
  const stored = JSON.stringify(rows);
  assert.not.ok(stored.includes(id), 'not the cookie\'s id');
  assert.not.ok(stored.includes(session.csrfToken), 'not the CSRF token');
  assert.equal(Object.keys(rows[0]!).sort(), ['id_hash', 'key_id', 'last_seen_ms', 'time_zone', 'workspace_id']);

  now += 5 * 60_000;
  const after = new SessionStore(() => now, db);
  const restored = after.get(id);
  assert.equal([restored?.keyId, restored?.workspaceId, restored?.timeZone], ['key_1', 'ws_1', 'UTC']);
  assert.is(restored?.csrfToken, session.csrfToken, 'the same CSRF token: forms open before the restart still work');
  assert.is(after.get(ended.id), undefined, 'an ended session stays ended');
  now += SESSION_IDLE_MS + 1;
  assert.is(new SessionStore(() => now, db).get(id), undefined, 'idle too long, restart or not');
  assert.is((db.prepare('SELECT count(*) AS n FROM dashboard_sessions').get() as { n: number }).n, 0, 'and removed');
});

test.run();
