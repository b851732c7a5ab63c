import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CommandHandler } from '../../../commands/handler.ts';
import { campaignDecider, campaignStateBytes, campaignStream } from '../../../domain/campaign.ts';
import { createSqliteEventStore } from '../../../infra/eventstore/sqlite.ts';
import { ContactPages } from '../../../processes/calling/contact-pages.ts';
import { contacts, createCommand } from '../../domain/campaign-fixtures.ts';

// The campaign's state keeps phones and statuses only; the dialer reads names and variables a page at a time.

const directory = mkdtempSync(join(tmpdir(), 'pages-'));
const store = createSqliteEventStore(join(directory, 'events.db'));
const handler = new CommandHandler(store);
const context = { workspaceId: 'ws_test', actor: 'test', now: new Date('2026-03-02T04:00:00Z') };
const list = contacts(2_500);
const created = await handler.handle(campaignDecider, campaignStream('cmp_test'), createCommand({ contacts: list }), context);

test('a contact\'s phone, name and variables come from its ContactsAdded page, for any index', async () => {
  const pages = new ContactPages(store, 2);
  for (const index of [0, 999, 1_000, 2_499, 1_500]) {
    const { phone, name, loan_amount } = list[index]!;
    assert.equal(await pages.contact('cmp_test', index), { index, phone, name, variables: { loan_amount } });
  }
});

test('pages are read once while kept, and at most maxPages are kept', async () => {
  let reads = 0;
  const counting = { readStream: (...args: Parameters<typeof store.readStream>) => (reads++, store.readStream(...args)) };
  const pages = new ContactPages(counting, 2);
  for (let index = 0; index < 1_000; index++) await pages.contact('cmp_test', index);
  assert.is(reads, 1, 'a walk in index order reads its page once');
  await pages.contact('cmp_test', 1_000);
  await pages.contact('cmp_test', 2_000);
  await pages.contact('cmp_test', 0);
  assert.is(reads, 4, 'the third page pushed the first out');
  await pages.contact('cmp_test', 2_001);
  assert.is(reads, 4);
});

test('an index the campaign does not have is an error, not another contact', async () => {
  const pages = new ContactPages(store);
  try {
    await pages.contact('cmp_test', 2_500);
    assert.unreachable('no such contact');
  } catch (error) {
    assert.match((error as Error).message, /no contact|no contacts page/);
  }
});

test('the folded state of a campaign holds about 11 bytes a contact, not its contacts\' details', () => {
  const bytes = campaignStateBytes(created.state);
  assert.ok(bytes < 2_500 * 16 + 4_096, `${bytes} bytes for 2,500 contacts`);
});

test.after(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});

test.run();
