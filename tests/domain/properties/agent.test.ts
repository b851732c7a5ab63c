import * as fc from 'fast-check';
import { suite } from 'uvu';
import { agentDecider, type AgentCommand, type AgentProfile, type AgentStatus } from '../../../domain/agent.ts';
import { isSupportedLanguage } from '../../../domain/shared/language.ts';
import { checkDeciderProperties } from './decider-properties.ts';
import { id, language, name, phone, nullable } from './domain-values.ts';

const properties = suite('agent decider: properties');

const status = fc.oneof({ weight: 6, arbitrary: fc.constantFrom<AgentStatus>('available', 'offline') }, { weight: 1, arbitrary: fc.constant('busy' as AgentStatus) });
const profile = {
  name,
  languages: fc.array(language, { maxLength: 11 }),
  phone: nullable(phone),
  sip_uri: nullable(fc.constantFrom('sip:asha@pbx.example.com', 'sips:ravi@pbx.example.com', 'tel:+91', 'sip:no-at-sign')),
  status,
};
// `now` comes from the clock, whose contract is a valid date; everything else is fuzzed.
const now = fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2027-01-01T00:00:00Z'), noInvalidDate: true });
const ids = { agentId: id('agt_1', 'agt_2'), workspaceId: id('ws_1', 'ws_2'), now };
const register: fc.Arbitrary<AgentCommand> = fc.record({ type: fc.constant('RegisterAgent' as const), ...ids, profile: fc.record(profile) });
const update: fc.Arbitrary<AgentCommand> = fc.record({
  type: fc.constant('UpdateAgent' as const),
  ...ids,
  changes: fc.record(profile, { requiredKeys: [] }) as fc.Arbitrary<Partial<AgentProfile>>,
});
const remove: fc.Arbitrary<AgentCommand> = fc.record({ type: fc.constant('RemoveAgent' as const), ...ids });

properties('random command sequences: only domain refusals, an agent stays reachable and speaks supported languages', () => {
  checkDeciderProperties({
    decider: agentDecider,
    command: fc.oneof(register, update, remove),
    opening: register,
    invariants: [
      { name: 'removal is final', broken: (after, before) => (before.status === 'removed' && after.status !== 'removed' ? after.status : null) },
      { name: 'reachable by phone or SIP', broken: (after) => (after.profile && after.profile.phone === null && after.profile.sip_uri === null ? 'unreachable' : null) },
      {
        name: '1 to 10 supported languages, each once',
        broken: (after) => {
          if (!after.profile) return null;
          const { languages } = after.profile;
          const ok = languages.length >= 1 && languages.length <= 10 && languages.every(isSupportedLanguage) && new Set(languages).size === languages.length;
          return ok ? null : JSON.stringify(languages);
        },
      },
    ],
  });
});

properties.run();
