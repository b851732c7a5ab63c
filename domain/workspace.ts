import type { Decider, DomainEvent } from './shared/decider.ts';
import { DomainError, invalidState } from './shared/errors.ts';
import { streamCategory } from './shared/stream-name.ts';

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 1_000;
export const DEFAULT_DIALING_CONCURRENCY = 10;

export type WorkspaceEvent =
  | DomainEvent<'WorkspaceCreated', { workspace_id: string; name: string; rate_limit_per_minute: number; dialing_concurrency: number; created_at: string }>
  | DomainEvent<'WorkspaceRenamed', { workspace_id: string; name: string }>
  | DomainEvent<'WorkspaceRateLimitSet', { workspace_id: string; rate_limit_per_minute: number }>
  | DomainEvent<'WorkspaceDialingConcurrencySet', { workspace_id: string; dialing_concurrency: number }>
  | DomainEvent<'WorkspaceDefaultQaScorecardSet', { workspace_id: string; qa_scorecard_id: string | null }>;

export type WorkspaceCommand =
  | { type: 'CreateWorkspace'; workspaceId: string; name: string; now: Date }
  | { type: 'RenameWorkspace'; name: string }
  | { type: 'SetRateLimit'; perMinute: number }
  | { type: 'SetDialingConcurrency'; limit: number }
  /** `scorecardFound`: whether the scorecard exists in the workspace (looked up by the caller; null clears). */
  | { type: 'SetDefaultQaScorecard'; scorecardId: string | null; scorecardFound: boolean };

export interface WorkspaceState {
  exists: boolean;
  workspaceId: string;
  name: string;
  rateLimitPerMinute: number;
  dialingConcurrency: number;
  /** The scorecard connected calls are scored against when neither the call nor its campaign names one. */
  defaultQaScorecardId: string | null;
}

const workspaceStreams = streamCategory('workspace');
export const workspaceStream = workspaceStreams.stream;
export const workspaceIdOf = workspaceStreams.idOf;

function checkName(name: string): void {
  if (name.trim().length === 0 || name.length > 255) {
    throw new DomainError('invalid_parameter', 'A workspace name has 1 to 255 characters.', {
      field: 'name',
      provided: name,
      expected: 'a string of 1 to 255 characters',
    });
  }
}

function checkPositiveInteger(field: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new DomainError('invalid_parameter', `${field} must be an integer from 1 to ${max}.`, {
      field,
      provided: value,
      expected: `an integer from 1 to ${max}`,
    });
  }
}

export const workspaceDecider: Decider<WorkspaceCommand, WorkspaceEvent, WorkspaceState> = {
  initialState: () => ({
    exists: false,
    workspaceId: '',
    name: '',
    rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
    dialingConcurrency: DEFAULT_DIALING_CONCURRENCY,
    defaultQaScorecardId: null,
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'WorkspaceCreated':
        return {
          exists: true,
          workspaceId: event.data.workspace_id,
          name: event.data.name,
          rateLimitPerMinute: event.data.rate_limit_per_minute,
          dialingConcurrency: event.data.dialing_concurrency,
          defaultQaScorecardId: null,
        };
      case 'WorkspaceRenamed':
        return { ...state, name: event.data.name };
      case 'WorkspaceRateLimitSet':
        return { ...state, rateLimitPerMinute: event.data.rate_limit_per_minute };
      case 'WorkspaceDialingConcurrencySet':
        return { ...state, dialingConcurrency: event.data.dialing_concurrency };
      case 'WorkspaceDefaultQaScorecardSet':
        return { ...state, defaultQaScorecardId: event.data.qa_scorecard_id };
    }
  },

  decide(command, state) {
    if (command.type === 'CreateWorkspace') {
      if (state.exists) throw invalidState(`workspace ${state.workspaceId} already exists`);
      checkName(command.name);
      return [
        {
          type: 'WorkspaceCreated',
          data: {
            workspace_id: command.workspaceId,
            name: command.name,
            rate_limit_per_minute: DEFAULT_RATE_LIMIT_PER_MINUTE,
            dialing_concurrency: DEFAULT_DIALING_CONCURRENCY,
            created_at: command.now.toISOString(),
          },
        },
      ];
    }
    if (!state.exists) throw new DomainError('resource_not_found', 'No such workspace.', { resource_type: 'workspace' });
    switch (command.type) {
      case 'RenameWorkspace':
        checkName(command.name);
        return command.name === state.name ? [] : [{ type: 'WorkspaceRenamed', data: { workspace_id: state.workspaceId, name: command.name } }];
      case 'SetRateLimit':
        checkPositiveInteger('per_minute', command.perMinute, 10_000_000);
        return [{ type: 'WorkspaceRateLimitSet', data: { workspace_id: state.workspaceId, rate_limit_per_minute: command.perMinute } }];
      case 'SetDialingConcurrency':
        checkPositiveInteger('concurrency', command.limit, 10_000);
        return [{ type: 'WorkspaceDialingConcurrencySet', data: { workspace_id: state.workspaceId, dialing_concurrency: command.limit } }];
      case 'SetDefaultQaScorecard':
        if (command.scorecardId !== null && !command.scorecardFound) {
          throw new DomainError('resource_not_found', `No qa_scorecard with id ${command.scorecardId}.`, { resource_type: 'qa_scorecard', id: command.scorecardId });
        }
        if (command.scorecardId === state.defaultQaScorecardId) return [];
        return [{ type: 'WorkspaceDefaultQaScorecardSet', data: { workspace_id: state.workspaceId, qa_scorecard_id: command.scorecardId } }];
    }
  },
};
