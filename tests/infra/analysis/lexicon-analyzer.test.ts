import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLexiconAnalyzer } from '../../../infra/analysis/lexicon-analyzer.ts';
import { scorecardSchema } from '../../../infra/analysis/scorecard-schema.ts';

const segments = [
  { speaker: 'agent', text: 'Namaste sir, Sunrise Finance se bol rahi hoon. Aapka personal loan renewal ke liye due hai.', start_time: 0.4, end_time: 6 },
  { speaker: 'customer', text: 'Haan ji, bahut badhiya. Mujhe loan renew karwana hai.', start_time: 6.5, end_time: 10 },
  { speaker: 'agent', text: 'Dhanyavaad sir, documents WhatsApp pe bhej deti hoon.', start_time: 10.5, end_time: 14 },
];

test('the lexicon analyzer answers all four questions about one Hinglish call', () => {
  const analyzer = createLexiconAnalyzer();
  assert.is(analyzer.intent({ segments, language: 'hi-IN' }), 'loan_renewal_interest');

  const sentiment = analyzer.sentiment({ segments, language: 'hi-IN' });
  assert.ok(sentiment.overall > 0.25);
  assert.equal(Object.keys(sentiment.by_speaker).sort(), ['agent', 'customer']);

  const summary = analyzer.summarize({ segments, language: 'hi-IN', disposition: 'interested' });
  assert.is(
    summary,
    'Sunrise Finance called the customer about the personal loan. The customer said: “Mujhe loan renew karwana hai.” ' +
      'The customer wants to renew the loan; the call ended with the customer interested; the customer sounded positive; next step: process the renewal.',
  );

  const scorecard = scorecardSchema.parse({
    name: 'Renewal QA',
    pass_threshold: 70,
    parameters: [
      { name: 'greeting', max_score: 10, check: { type: 'agent_says', phrases: { en: ['hello'], hi: ['नमस्ते', 'namaste'] }, within_seconds: 15 } },
      { name: 'customer_confirms', max_score: 20, check: { type: 'customer_says', phrases: { en: ['yes'], hi: ['haan', 'हाँ'] } } },
    ],
  });
  const qa = analyzer.scoreQa({ segments, language: 'hi-IN', scorecard });
  assert.is(qa.overall_score, 100);
  assert.is(qa.passed, true);
});

test.run();
