import { test } from 'uvu';
import { qaScorecardDecider, type QaScorecardDefinition, type QaScorecardEvent } from '../../domain/qa-scorecard.ts';
import { given } from './given-when-then.ts';

const definition: QaScorecardDefinition = {
  name: 'Renewal QA',
  pass_threshold: 70,
  parameters: [{ name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['hello'] } } }],
};
const now = new Date('2026-03-01T10:00:00.000Z');
const created: QaScorecardEvent[] = [
  { type: 'QaScorecardCreated', data: { scorecard_id: 'qsc_1', workspace_id: 'ws_1', version: 1, definition, created_at: now.toISOString() } },
];

test('create, then creating the same id again is already_exists', () => {
  given(qaScorecardDecider).when({ type: 'CreateQaScorecard', scorecardId: 'qsc_1', workspaceId: 'ws_1', definition, now }).then(created);
  given(qaScorecardDecider, created).when({ type: 'CreateQaScorecard', scorecardId: 'qsc_1', workspaceId: 'ws_1', definition, now }).thenThrows('already_exists');
});

test('replace: a new version when the content changes, nothing when it is the same (key order ignored)', () => {
  const changed = { ...definition, pass_threshold: 80 };
  given(qaScorecardDecider, created)
    .when({ type: 'ReplaceQaScorecard', scorecardId: 'qsc_1', workspaceId: 'ws_1', definition: changed, now })
    .then([{ type: 'QaScorecardReplaced', data: { scorecard_id: 'qsc_1', workspace_id: 'ws_1', version: 2, definition: changed, replaced_at: now.toISOString() } }]);
  const reordered = { parameters: definition.parameters, pass_threshold: 70, name: 'Renewal QA' };
  given(qaScorecardDecider, created).when({ type: 'ReplaceQaScorecard', scorecardId: 'qsc_1', workspaceId: 'ws_1', definition: reordered, now }).thenNothing();
});

test('another workspace, a deleted or an unknown scorecard: resource_not_found', () => {
  given(qaScorecardDecider, created).when({ type: 'DeleteQaScorecard', scorecardId: 'qsc_1', workspaceId: 'ws_2', now }).thenThrows('resource_not_found', { resource_type: 'qa_scorecard', id: 'qsc_1' });
  const deleted: QaScorecardEvent[] = [...created, { type: 'QaScorecardDeleted', data: { scorecard_id: 'qsc_1', workspace_id: 'ws_1', deleted_at: now.toISOString() } }];
  given(qaScorecardDecider, created).when({ type: 'DeleteQaScorecard', scorecardId: 'qsc_1', workspaceId: 'ws_1', now }).then(deleted.slice(1));
  given(qaScorecardDecider, deleted).when({ type: 'DeleteQaScorecard', scorecardId: 'qsc_1', workspaceId: 'ws_1', now }).thenThrows('resource_not_found');
  given(qaScorecardDecider, deleted).when({ type: 'ReplaceQaScorecard', scorecardId: 'qsc_1', workspaceId: 'ws_1', definition, now }).thenThrows('resource_not_found');
  given(qaScorecardDecider).when({ type: 'ReplaceQaScorecard', scorecardId: 'qsc_9', workspaceId: 'ws_1', definition, now }).thenThrows('resource_not_found');
});

test.run();
