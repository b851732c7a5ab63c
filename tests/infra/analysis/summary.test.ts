import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { TranscriptSegment } from '../../../infra/analysis/port.ts';
import { summarize } from '../../../infra/analysis/summary.ts';

function sentenceCount(text: string, language: string): number {
  const segmenter = new Intl.Segmenter(language.slice(0, 2), { granularity: 'sentence' });
  return [...segmenter.segment(text)].filter((part) => part.segment.trim()).length;
}

interface LabelledTranscript {
  id: string;
  language: string;
  segments: TranscriptSegment[];
}

const labelled: LabelledTranscript[] = JSON.parse(
  readFileSync(new URL('../../../bench/data/labelled-transcripts.json', import.meta.url), 'utf8'),
).transcripts;

test('a one-segment transcript gives the template sentence plus that segment', () => {
  const segments = [{ speaker: 'customer', text: 'Please call me back tomorrow', start_time: 0, end_time: 2 }];
  const summary = summarize({ segments, language: 'en-IN' });
  assert.is(sentenceCount(summary, 'en-IN'), 2);
  assert.ok(summary.startsWith("The customer's main intent was a request to be called back later"));
  assert.ok(summary.endsWith('Customer: Please call me back tomorrow.'));
});

test('a one-word segment and an empty transcript still give two sentences', () => {
  const short = summarize({ segments: [{ speaker: 'agent', text: 'नमस्ते', start_time: 0, end_time: 1 }], language: 'hi-IN' });
  assert.is(sentenceCount(short, 'hi-IN'), 2);
  assert.ok(short.endsWith('Agent: नमस्ते।'));
  const empty = summarize({ segments: [], language: 'ta-IN' });
  assert.is(sentenceCount(empty, 'ta-IN'), 2);
  assert.ok(empty.includes('No speech was transcribed.'));
});

test('a long transcript gives four sentences, extracted ones in transcript order', () => {
  const topics = ['loan', 'EMI', 'renewal', 'interest rate', 'documents', 'branch', 'insurance', 'premium'];
  const segments = Array.from({ length: 40 }, (_, index) => ({
    speaker: index % 2 === 0 ? 'agent' : 'customer',
    text: `We talked about the ${topics[index % topics.length]} and the loan renewal for item number ${index}.`,
    start_time: index * 5,
    end_time: index * 5 + 4,
  }));
  const summary = summarize({ segments, language: 'en-IN' });
  assert.is(sentenceCount(summary, 'en-IN'), 4);
  const numbers = [...summary.matchAll(/item number (\d+)/g)].map((match) => Number(match[1]));
  assert.is(numbers.length, 3);
  assert.equal(numbers, [...numbers].sort((a, b) => a - b));
});

test('every labelled transcript gets 2 to 4 sentences in its own language', () => {
  for (const transcript of labelled) {
    const summary = summarize({ segments: transcript.segments, language: transcript.language });
    const count = sentenceCount(summary, transcript.language);
    assert.ok(count >= 2 && count <= 4, `${transcript.id}: ${count} sentences: ${summary}`);
  }
});

test('the template sentence uses the given intent and disposition', () => {
  const segments = [{ speaker: 'customer', text: 'Theek hai.', start_time: 0, end_time: 1 }];
  const summary = summarize({ segments, language: 'hi-IN', intent: 'payment_promise', disposition: 'callback' });
  assert.ok(summary.startsWith("The customer's main intent was a promise to pay; the customer's tone was neutral, and the call ended with a callback to arrange."));
  const unknown = summarize({ segments, language: 'hi-IN', intent: null, disposition: 'not_reachable' });
  assert.ok(unknown.startsWith('No clear customer intent was detected;'));
  assert.ok(unknown.includes('ended without reaching the customer'));
});

test('the summary is deterministic', () => {
  const transcript = labelled[0]!;
  const input = { segments: transcript.segments, language: transcript.language };
  assert.is(summarize(input), summarize(input));
});

test.run();
