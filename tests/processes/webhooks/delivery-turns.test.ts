import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nextTurn, type QueueLimits, type Turns } from '../../../processes/webhooks/delivery-turns.ts';

// The delivery queue's choice: given what waits (workspaces and their webhooks, in turn order) and what runs, whose
// attempt starts next.

const limits: QueueLimits = { total: 64, perWorkspace: 16, perWebhook: 8 };

function given(waiting: Record<string, string[]>, running: Record<string, Record<string, number>> = {}): Turns {
  const byWorkspace = new Map<string, number>();
  const byWebhook = new Map<string, number>();
  let total = 0;
  for (const [workspaceId, webhooks] of Object.entries(running)) {
    for (const [webhookId, count] of Object.entries(webhooks)) {
      byWorkspace.set(workspaceId, (byWorkspace.get(workspaceId) ?? 0) + count);
      byWebhook.set(webhookId, count);
      total += count;
    }
  }
  return { waiting: Object.entries(waiting).map(([workspaceId, webhookIds]) => ({ workspaceId, webhookIds })), running: { total, byWorkspace, byWebhook } };
}
const pick = (turns: Turns, choose = limits) => {
  const turn = nextTurn(turns, choose);
  return turn && `${turn.workspaceId}/${turn.webhookId}`;
};
/** Workspace A's 20 webhooks, each with `each` attempts under way. */
const deadA = (each: number) => Object.fromEntries(Array.from({ length: 20 }, (_, n) => [`wh_a${n}`, each]));

test('given deliveries of two workspaces waiting, nothing running, then the first workspace in turn order, its first webhook', () => {
  assert.is(pick(given({ ws_a: ['wh_a1', 'wh_a2'], ws_b: ['wh_b1'] })), 'ws_a/wh_a1');
});

test('given a dead workspace holding its cap (16 hung attempts over its 20 webhooks), then the other workspace still gets a slot', () => {
  const hung = { ws_a: { ...Object.fromEntries(Array.from({ length: 16 }, (_, n) => [`wh_a${n}`, 1])) } };
  const waitingA = Array.from({ length: 20 }, (_, n) => `wh_a${n}`);
  assert.is(pick(given({ ws_a: waitingA, ws_b: ['wh_b1'] }, hung)), 'ws_b/wh_b1', 'A is first in turn order but at its cap');
  assert.is(pick(given({ ws_a: waitingA }, hung)), null, 'A alone waits, though 48 slots are free');
});

test('given a workspace below its cap whose waiting webhooks are each at their cap, then the next workspace', () => {
  assert.is(pick(given({ ws_a: ['wh_a1'], ws_b: ['wh_b1'] }, { ws_a: { wh_a1: 8 } })), 'ws_b/wh_b1');
  assert.is(pick(given({ ws_a: ['wh_a1', 'wh_a2'], ws_b: ['wh_b1'] }, { ws_a: { wh_a1: 8 } })), 'ws_a/wh_a2', 'another webhook of A may go');
});

test('given the total reached, then nobody; given it one short, then the first workspace below its cap', () => {
  const full = { ws_a: deadA(2), ws_b: { wh_b1: 8, wh_b2: 8 }, ws_c: { wh_c1: 8 } };
  assert.is(pick(given({ ws_d: ['wh_d1'] }, full), { ...limits, perWorkspace: 64 }), null, '64 running');
  const oneShort = { ws_a: deadA(2), ws_b: { wh_b1: 8, wh_b2: 7 }, ws_c: { wh_c1: 8 } };
  assert.is(pick(given({ ws_b: ['wh_b2'], ws_d: ['wh_d1'] }, oneShort), { ...limits, perWorkspace: 64 }), 'ws_b/wh_b2');
});

test('given the old limits (no workspace cap), then a dead workspace would take every slot: the cap is what isolates', () => {
  const noWorkspaceCap = { ...limits, perWorkspace: Infinity };
  const running = { ws_a: deadA(3) }; // 60 hung attempts
  assert.is(pick(given({ ws_a: ['wh_a0'], ws_b: ['wh_b1'] }, running), noWorkspaceCap), 'ws_a/wh_a0');
  assert.is(pick(given({ ws_a: ['wh_a0'], ws_b: ['wh_b1'] }, running)), 'ws_b/wh_b1');
});

test.run();
