import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultPack } from '../../../domain/compliance/packs.ts';
import { complianceSettingsDecider, type ComplianceSettingsEvent } from '../../../domain/compliance/settings.ts';
import { fold } from '../../../domain/shared/decider.ts';
import { given } from '../given-when-then.ts';

const at = '2026-03-02T04:00:00.000Z';
const set = (packs: unknown) => ({ type: 'SetComplianceSettings' as const, data: { workspace_id: 'ws_1', packs, at } });

test('never set: the general pack only, with its defaults', () => {
  const state = complianceSettingsDecider.initialState();
  assert.equal(state.packs, [defaultPack('general')]);
  assert.is(state.revision, 0);
});

test('packs are recorded with their versions and every parameter, defaults filled in', () => {
  const [event] = given(complianceSettingsDecider).when(set([{ id: 'in-rbi-recovery', parameters: { max_attempts_per_day: 2 } }, { id: 'in-dpdp' }])).then([
    {
      type: 'ComplianceSettingsSet',
      data: {
        workspace_id: 'ws_1',
        packs: [
          { id: 'in-rbi-recovery', version: '1.0.0', parameters: { default_timezone: 'Asia/Kolkata', max_attempts_per_day: 2, max_attempts_per_week: 10, intro_window_seconds: 30, threat_sentiment_threshold: -0.6 } },
          { id: 'in-dpdp', version: '1.0.0', parameters: { sector: 'lender', disclosure_window_seconds: 30 } },
        ],
        set_at: at,
      },
    },
  ]);
  const state = fold(complianceSettingsDecider, [event as ComplianceSettingsEvent]);
  assert.is(state.revision, 1);
  // The same settings again: nothing recorded.
  given(complianceSettingsDecider, [event as ComplianceSettingsEvent]).when(set([{ id: 'in-rbi-recovery', parameters: { max_attempts_per_day: 2 } }, { id: 'in-dpdp' }])).thenNothing();
});

test('an empty list disables every check', () => {
  const events = given(complianceSettingsDecider).when(set([])).then([{ type: 'ComplianceSettingsSet', data: { workspace_id: 'ws_1', packs: [], set_at: at } }]);
  assert.equal(fold(complianceSettingsDecider, events).packs, []);
});

test('precise refusals: field, provided, expected', () => {
  given(complianceSettingsDecider).when(set({})).thenThrows('invalid_parameter', { field: 'packs' });
  given(complianceSettingsDecider).when(set([{ id: 'in-fcc' }])).thenThrows('invalid_parameter', { field: 'packs[0].id', provided: 'in-fcc' });
  given(complianceSettingsDecider).when(set([{ id: 'general' }, { id: 'general' }])).thenThrows('invalid_parameter', { field: 'packs[1].id' });
  given(complianceSettingsDecider).when(set([{ id: 'general', enabled: true }])).thenThrows('invalid_parameter', { field: 'packs[0].enabled' });
  given(complianceSettingsDecider).when(set([{ id: 'general', parameters: [] }])).thenThrows('invalid_parameter', { field: 'packs[0].parameters' });
  given(complianceSettingsDecider)
    .when(set([{ id: 'in-rbi-recovery', parameters: { max_attempts_per_day: 0 } }]))
    .thenThrows('invalid_parameter', { field: 'packs[0].parameters.max_attempts_per_day', provided: 0 });
  given(complianceSettingsDecider)
    .when(set([{ id: 'in-rbi-recovery', parameters: { max_attempts_per_day: 5, max_attempts_per_week: 3 } }]))
    .thenThrows('invalid_parameter', { field: 'packs[0].parameters.max_attempts_per_week', provided: 3 });
  given(complianceSettingsDecider).when(set([{ id: 'in-trai', parameters: { default_timezone: 'Mars/Olympus' } }])).thenThrows('invalid_parameter', { field: 'packs[0].parameters.default_timezone', provided: 'Mars/Olympus' });
  given(complianceSettingsDecider).when(set([{ id: 'in-trai', parameters: { caller_ids: { fax: '1' } } }])).thenThrows('invalid_parameter', { field: 'packs[0].parameters.caller_ids.fax', provided: '1' });
  const unknown = given(complianceSettingsDecider).when(set([{ id: 'in-dpdp', parameters: { disclosure: 'x' } }])).thenThrows('invalid_parameter', { field: 'packs[0].parameters.disclosure' });
  assert.match(String(unknown.details.expected), /sector, disclosure_window_seconds/);
  given(complianceSettingsDecider).when(set([{ id: 'in-dpdp', parameters: { sector: 'bank' } }])).thenThrows('invalid_parameter', { field: 'packs[0].parameters.sector', provided: 'bank' });
});

test.run();
