import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { agentSpeaker, customerSegments, nonAgentSegments } from '../../../domain/shared/text/speaker-roles.ts';

const at = (speaker: string, start_time: number) => ({ speaker, text: '', start_time, end_time: start_time + 1 });

test('agent and customer labels are used when present', () => {
  const segments = [at('customer', 0), at('agent', 1), at('customer', 2)];
  assert.is(agentSpeaker(segments), 'agent');
  assert.equal(customerSegments(segments).map((s) => s.start_time), [0, 2]);
});

test('only an agent label: everyone else is the customer side', () => {
  const segments = [at('agent', 0), at('speaker_2', 1), at('speaker_3', 2)];
  assert.equal(customerSegments(segments).map((s) => s.speaker), ['speaker_2', 'speaker_3']);
  assert.equal(nonAgentSegments(segments).map((s) => s.speaker), ['speaker_2', 'speaker_3']);
});

test('only a customer label: the first other speaker is the agent', () => {
  assert.is(agentSpeaker([at('customer', 0), at('speaker_2', 1)]), 'speaker_2');
});

test('unlabelled speakers: the first to speak is the agent and all segments are the customer\'s for intent', () => {
  const segments = [at('speaker_2', 3), at('speaker_1', 0)];
  assert.is(agentSpeaker(segments), 'speaker_1');
  assert.is(customerSegments(segments).length, 2);
  assert.is(agentSpeaker([]), null);
});

test.run();
