import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { suppressionDecider, suppressionStream, type SuppressionCommand } from '../../domain/suppression.ts';
import { findSuppression, listSuppressions } from '../../projections/suppressions.ts';
import { testRuntime } from '../support/runtime.ts';

test('suppressions projection: added by call outcome or API, listed newest first per workspace, removed, added again', async () => {
  const { runtime, remove } = testRuntime();
  try {
    const handle = (workspaceId: string, command: SuppressionCommand) =>
      runtime.commands.handle(suppressionDecider, suppressionStream(workspaceId), command, { workspaceId, actor: 'test', now: new Date() });
    await handle('ws_a', { type: 'SuppressNumber', data: { phone: '+919876500007', source: 'call_outcome', call_id: 'cal_7', at: '2026-03-01T10:00:00.000Z' } });
    await handle('ws_a', { type: 'SuppressNumber', data: { phone: '+919876500008', source: 'api', reason: 'Asked by letter', at: '2026-03-01T11:00:00.000Z' } });
    await handle('ws_b', { type: 'SuppressNumber', data: { phone: '+919876500009', source: 'api', at: '2026-03-01T12:00:00.000Z' } });
    await runtime.projections.catchUp();
    const listed = listSuppressions(runtime.readDb, 'ws_a', 20, 0);
    assert.is(listed.total, 2);
    assert.equal(listed.data, [
      { phone: '+919876500008', source: 'api', reason: 'Asked by letter', call_id: null, suppressed_at: '2026-03-01T11:00:00.000Z' },
      { phone: '+919876500007', source: 'call_outcome', reason: null, call_id: 'cal_7', suppressed_at: '2026-03-01T10:00:00.000Z' },
    ]);
    assert.equal(listSuppressions(runtime.readDb, 'ws_a', 1, 1).data.map((entry) => entry.phone), ['+919876500007']);
    assert.is(findSuppression(runtime.readDb, 'ws_b', '+919876500007'), undefined, 'lists are per workspace');

    await handle('ws_a', { type: 'UnsuppressNumber', data: { phone: '+919876500007', at: '2026-03-01T13:00:00.000Z' } });
    await runtime.projections.catchUp();
    assert.is(findSuppression(runtime.readDb, 'ws_a', '+919876500007'), undefined);
    assert.is(listSuppressions(runtime.readDb, 'ws_a', 20, 0).total, 1);

    await handle('ws_a', { type: 'SuppressNumber', data: { phone: '+919876500007', source: 'api', reason: 'again', at: '2026-03-01T14:00:00.000Z' } });
    await runtime.projections.catchUp();
    assert.equal(findSuppression(runtime.readDb, 'ws_a', '+919876500007'), {
      phone: '+919876500007',
      source: 'api',
      reason: 'again',
      call_id: null,
      suppressed_at: '2026-03-01T14:00:00.000Z',
    });
  } finally {
    await runtime.close();
    remove();
  }
});

test.run();
