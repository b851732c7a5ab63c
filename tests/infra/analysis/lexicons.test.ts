import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LEXICON_KEYS } from '../../../domain/shared/text/lexicon-selection.ts';
import { intentLexicons } from '../../../infra/analysis/lexicon/intent/index.ts';
import { replyLexicons } from '../../../infra/analysis/lexicon/reply/index.ts';
import { sentimentLexicons } from '../../../infra/analysis/lexicon/sentiment/index.ts';
import { compilePhrase } from '../../../domain/shared/text/normalize.ts';

function normalised(phrase: string, key: string): string {
  return compilePhrase(phrase, key)
    .map((word) => `${word.text}${word.prefix ? '*' : ''}`)
    .join(' ');
}

function assertNoConflicts(kind: string, key: string, entries: [phrase: string, value: unknown][]): void {
  const seen = new Map<string, unknown>();
  for (const [phrase, value] of entries) {
    const form = normalised(phrase, key);
    assert.ok(form.length > 0, `${kind} ${key}: "${phrase}" has no words`);
    if (seen.has(form)) {
      assert.is(JSON.stringify(seen.get(form)), JSON.stringify(value), `${kind} ${key}: "${phrase}" listed twice with different values`);
    }
    seen.set(form, value);
  }
}

test('sentiment lexicons: valences in [-3, 3], no phrase listed twice with different valences', () => {
  for (const key of LEXICON_KEYS) {
    const lexicon = sentimentLexicons[key];
    for (const [phrase, valence] of Object.entries(lexicon.valences)) {
      assert.ok(valence >= -3 && valence <= 3, `${key}: ${phrase} = ${valence}`);
    }
    assertNoConflicts('sentiment', key, Object.entries(lexicon.valences));
    for (const factor of Object.values(lexicon.intensifiers)) assert.ok(factor > 0 && factor <= 2);
  }
});

test('intent lexicons: weights 1 to 3, no phrase with two different labels or weights', () => {
  for (const key of LEXICON_KEYS) {
    const entries: [string, unknown][] = [];
    for (const [label, phrases] of Object.entries(intentLexicons[key].phrases)) {
      for (const [phrase, weight] of phrases) {
        assert.ok([1, 2, 3].includes(weight), `${key}: ${phrase} weight ${weight}`);
        entries.push([phrase, [label, weight]]);
      }
    }
    assertNoConflicts('intent', key, entries);
  }
});

test('reply lexicons: no phrase under two intents', () => {
  for (const key of LEXICON_KEYS) {
    const entries = Object.entries(replyLexicons[key]).flatMap(([intent, phrases]) =>
      phrases.map((phrase): [string, unknown] => [phrase, intent]),
    );
    assertNoConflicts('reply', key, entries);
  }
});

test('stems (word*) are at least two characters long, so they cannot swallow unrelated words', () => {
  const all = LEXICON_KEYS.flatMap((key) => [
    ...Object.keys(sentimentLexicons[key].valences),
    ...Object.values(intentLexicons[key].phrases).flatMap((phrases) => phrases.map(([phrase]) => phrase)),
    ...Object.values(replyLexicons[key]).flat(),
  ]);
  for (const phrase of all) {
    for (const word of compilePhrase(phrase, 'und')) {
      if (word.prefix) assert.ok([...word.text].length >= 2, `stem too short: ${phrase}`);
    }
  }
});

test.run();
