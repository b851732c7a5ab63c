import type { Decider, DomainEvent } from './shared/decider.ts';
import { alreadyDone, invalidState, notFound } from './shared/errors.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * A QA scorecard (stream `qa-scorecard-<id>`, id `qsc_...`): named parameters, each a check on a transcript worth
 * `max_score` points. Created, replaced whole (PUT, a new version each time the content changes) and deleted.
 * The shape of a definition (check types, phrase lists, ranges) is validated at the edge by
 * `infra/analysis/scorecard-schema.ts`, the same schema the scorer reads; the aggregate owns identity, workspace
 * and lifecycle. A transcription job pins the version it was submitted with, so editing or deleting a scorecard
 * never changes a job already queued.
 */
export type QaScorecardDefinition = {
  name: string;
  description?: string;
  pass_threshold: number;
  parameters: Array<{ name: string; description?: string; max_score: number; check: { type: string } & Record<string, unknown> }>;
};

export type QaScorecardVersionData = {
  scorecard_id: string;
  workspace_id: string;
  version: number;
  definition: QaScorecardDefinition;
};

export type QaScorecardEvent =
  | DomainEvent<'QaScorecardCreated', QaScorecardVersionData & { created_at: string }>
  | DomainEvent<'QaScorecardReplaced', QaScorecardVersionData & { replaced_at: string }>
  | DomainEvent<'QaScorecardDeleted', { scorecard_id: string; workspace_id: string; deleted_at: string }>;

export type QaScorecardCommand =
  | { type: 'CreateQaScorecard'; scorecardId: string; workspaceId: string; definition: QaScorecardDefinition; now: Date }
  | { type: 'ReplaceQaScorecard'; scorecardId: string; workspaceId: string; definition: QaScorecardDefinition; now: Date }
  | { type: 'DeleteQaScorecard'; scorecardId: string; workspaceId: string; now: Date };

export interface QaScorecardState {
  status: 'none' | 'active' | 'deleted';
  scorecardId: string;
  workspaceId: string;
  version: number;
  definition: QaScorecardDefinition | null;
  createdAt: string;
  updatedAt: string;
}

const qaScorecardStreams = streamCategory('qa-scorecard');
export const qaScorecardStream = qaScorecardStreams.stream;
export const qaScorecardIdOf = qaScorecardStreams.idOf;

export const qaScorecardDecider: Decider<QaScorecardCommand, QaScorecardEvent, QaScorecardState> = {
  initialState: () => ({ status: 'none', scorecardId: '', workspaceId: '', version: 0, definition: null, createdAt: '', updatedAt: '' }),

  evolve(state, event) {
    switch (event.type) {
      case 'QaScorecardCreated': {
        const { scorecard_id, workspace_id, version, definition, created_at } = event.data;
        return { status: 'active', scorecardId: scorecard_id, workspaceId: workspace_id, version, definition, createdAt: created_at, updatedAt: created_at };
      }
      case 'QaScorecardReplaced':
        return { ...state, version: event.data.version, definition: event.data.definition, updatedAt: event.data.replaced_at };
      case 'QaScorecardDeleted':
        return { ...state, status: 'deleted' };
    }
  },

  decide(command, state) {
    if (command.type === 'CreateQaScorecard') {
      if (state.status !== 'none') throw alreadyDone(`Scorecard ${state.scorecardId} already exists.`, { id: state.scorecardId });
      const data = { scorecard_id: command.scorecardId, workspace_id: command.workspaceId, version: 1, definition: command.definition };
      return [{ type: 'QaScorecardCreated', data: { ...data, created_at: command.now.toISOString() } }];
    }
    // Another workspace's scorecard, or a deleted one, is reported exactly like one that never existed.
    if (state.status !== 'active' || state.workspaceId !== command.workspaceId) throw notFound('qa_scorecard', command.scorecardId);
    switch (command.type) {
      case 'ReplaceQaScorecard': {
        // The same content again is not a new version: a retried PUT changes nothing.
        if (JSON.stringify(canonical(state.definition)) === JSON.stringify(canonical(command.definition))) return [];
        const data = { scorecard_id: state.scorecardId, workspace_id: state.workspaceId, version: state.version + 1, definition: command.definition };
        return [{ type: 'QaScorecardReplaced', data: { ...data, replaced_at: command.now.toISOString() } }];
      }
      case 'DeleteQaScorecard':
        return [{ type: 'QaScorecardDeleted', data: { scorecard_id: state.scorecardId, workspace_id: state.workspaceId, deleted_at: command.now.toISOString() } }];
    }
  },
};

/** Plain JSON with object keys sorted and undefined members dropped, for comparing definitions. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, member]) => member !== undefined);
  return Object.fromEntries(entries.sort(([left], [right]) => (left < right ? -1 : 1)).map(([key, member]) => [key, canonical(member)]));
}
