import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isWithinCallingHours, nextCallingTime, resolveScheduleTime, isValidTimezone } from '../../domain/campaign.ts';

// Schedule times and calling hours in the schedule's IANA timezone.

test('schedule times: an offset makes an instant; a bare wall-clock time is read in the timezone', () => {
  assert.is(resolveScheduleTime('2026-03-02T09:00:00Z', 'Asia/Kolkata')!.toISOString(), '2026-03-02T09:00:00.000Z');
  assert.is(resolveScheduleTime('2026-03-02T09:00:00+05:30', 'UTC')!.toISOString(), '2026-03-02T03:30:00.000Z');
  assert.is(resolveScheduleTime('2026-03-02T09:00:00', 'Asia/Kolkata')!.toISOString(), '2026-03-02T03:30:00.000Z');
  assert.is(resolveScheduleTime('2026-03-02T09:00', 'UTC')!.toISOString(), '2026-03-02T09:00:00.000Z');
  assert.is(resolveScheduleTime('2026-03-02', 'UTC'), null);
  assert.is(resolveScheduleTime('2026-13-02T09:00:00', 'UTC'), null);
});

test('schedule times across a DST change (America/New_York, 2026-03-08)', () => {
  assert.is(resolveScheduleTime('2026-03-07T09:00:00', 'America/New_York')!.toISOString(), '2026-03-07T14:00:00.000Z');
  assert.is(resolveScheduleTime('2026-03-09T09:00:00', 'America/New_York')!.toISOString(), '2026-03-09T13:00:00.000Z');
});

test('timezones are IANA names', () => {
  assert.ok(isValidTimezone('Asia/Kolkata'));
  assert.ok(isValidTimezone('UTC'));
  assert.not.ok(isValidTimezone('IST+5'));
});

test('calling hours 09:00-21:00 Asia/Kolkata: start inclusive, end exclusive', () => {
  const hours = { start: '09:00', end: '21:00' };
  assert.ok(isWithinCallingHours(new Date('2026-03-02T03:30:00Z'), hours, 'Asia/Kolkata')); // 09:00 IST
  assert.not.ok(isWithinCallingHours(new Date('2026-03-02T03:29:59Z'), hours, 'Asia/Kolkata'));
  assert.not.ok(isWithinCallingHours(new Date('2026-03-02T15:30:00Z'), hours, 'Asia/Kolkata')); // 21:00 IST
});

test('next calling time: later today, tomorrow, or now', () => {
  const hours = { start: '09:00', end: '21:00' };
  assert.is(nextCallingTime(new Date('2026-03-02T01:00:00Z'), hours, 'Asia/Kolkata').toISOString(), '2026-03-02T03:30:00.000Z');
  assert.is(nextCallingTime(new Date('2026-03-02T16:00:00Z'), hours, 'Asia/Kolkata').toISOString(), '2026-03-03T03:30:00.000Z');
  assert.is(nextCallingTime(new Date('2026-03-02T05:00:00Z'), hours, 'Asia/Kolkata').toISOString(), '2026-03-02T05:00:00.000Z');
  // A window across midnight.
  const night = { start: '21:00', end: '02:00' };
  assert.ok(isWithinCallingHours(new Date('2026-03-02T01:00:00Z'), night, 'UTC'));
  assert.is(nextCallingTime(new Date('2026-03-02T03:00:00Z'), night, 'UTC').toISOString(), '2026-03-02T21:00:00.000Z');
});

test.run();
