import type { Decider, DomainEvent } from './shared/decider.ts';
import { DomainError, invalidState } from './shared/errors.ts';
import { streamCategory } from './shared/stream-name.ts';

/**
 * A durable timer: "do `kind` with `payload` at `due_at`". The event records the due time, the `timers` read
 * model indexes it, and the timer scheduler fires what is due. Firing is an event too, appended with the
 * timer's expected revision, so a timer fires exactly once even when two schedulers race or a process restarts;
 * process managers react to `TimerFired`.
 */
export type TimerEvent =
  | DomainEvent<'TimerScheduled', { timer_id: string; kind: string; due_at: string; payload: Record<string, unknown> }>
  | DomainEvent<'TimerFired', { timer_id: string; kind: string; due_at: string; fired_at: string; payload: Record<string, unknown> }>
  | DomainEvent<'TimerCancelled', { timer_id: string; kind: string; cancelled_at: string; reason: string }>;

export type TimerCommand =
  | { type: 'ScheduleTimer'; timerId: string; kind: string; dueAt: Date; payload: Record<string, unknown> }
  | { type: 'FireTimer'; now: Date }
  | { type: 'CancelTimer'; now: Date; reason: string };

export interface TimerState {
  status: 'none' | 'scheduled' | 'fired' | 'cancelled';
  timerId: string;
  kind: string;
  dueAt: string;
  payload: Record<string, unknown>;
}

const timerStreams = streamCategory('timer');
export const timerStream = timerStreams.stream;
export const timerIdOf = timerStreams.idOf;

export const timerDecider: Decider<TimerCommand, TimerEvent, TimerState> = {
  initialState: () => ({ status: 'none', timerId: '', kind: '', dueAt: '', payload: {} }),

  evolve(state, event) {
    switch (event.type) {
      case 'TimerScheduled':
        return { status: 'scheduled', timerId: event.data.timer_id, kind: event.data.kind, dueAt: event.data.due_at, payload: event.data.payload };
      case 'TimerFired':
        return { ...state, status: 'fired' };
      case 'TimerCancelled':
        return { ...state, status: 'cancelled' };
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ScheduleTimer':
        if (Number.isNaN(command.dueAt.getTime())) throw new DomainError('invalid_parameter', 'timer due time is not a date');
        // The same deterministic timer scheduled again (a replayed process manager) changes nothing.
        if (state.status !== 'none') return [];
        return [
          {
            type: 'TimerScheduled',
            data: { timer_id: command.timerId, kind: command.kind, due_at: command.dueAt.toISOString(), payload: command.payload },
          },
        ];
      case 'FireTimer':
        if (state.status !== 'scheduled') return [];
        if (command.now.getTime() < new Date(state.dueAt).getTime()) {
          throw invalidState(`timer ${state.timerId} is not due before ${state.dueAt}`);
        }
        return [
          {
            type: 'TimerFired',
            data: { timer_id: state.timerId, kind: state.kind, due_at: state.dueAt, fired_at: command.now.toISOString(), payload: state.payload },
          },
        ];
      case 'CancelTimer':
        if (state.status !== 'scheduled') return [];
        return [
          { type: 'TimerCancelled', data: { timer_id: state.timerId, kind: state.kind, cancelled_at: command.now.toISOString(), reason: command.reason } },
        ];
    }
  },
};
