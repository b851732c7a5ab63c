/**
 * docs/analysis.md documents each intent label with an example per language. Given each documented example as
 * the customer's turn, when the intent is detected, then it is the documented label: the table cannot drift
 * from what the analyzer does.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { INTENT_LABELS } from '../../../infra/analysis/intent-labels.ts';
import { detectIntent } from '../../../infra/analysis/intent.ts';

const COLUMNS = ['en-IN', 'hi-IN', 'hi-IN', 'mr-IN', 'ta-IN', 'te-IN'];
const LOAN_CONTEXT: Record<string, string> = {
  'en-IN': 'Your loan is closing next month.',
  'hi-IN': 'आपका लोन अगले महीने खत्म हो रहा है।',
  'mr-IN': 'तुमचं कर्ज पुढच्या महिन्यात संपतंय.',
  'ta-IN': 'உங்கள் கடன் அடுத்த மாதம் முடிகிறது.',
  'te-IN': 'మీ లోన్ వచ్చే నెలలో ముగుస్తుంది.',
};

function documentedExamples(): { label: string; examples: string[] }[] {
  const doc = readFileSync(new URL('../../../docs/analysis.md', import.meta.url), 'utf8');
  const table = doc.split('<!-- intent-examples:start -->')[1]!.split('<!-- intent-examples:end -->')[0]!;
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
      return { label: cells[0]!.replace(/`/g, ''), examples: cells.slice(1) };
    });
}

test('given the documented example of every label in every language, then it is detected as that label', () => {
  const rows = documentedExamples();
  assert.equal(rows.map((row) => row.label).sort(), [...INTENT_LABELS].sort());
  for (const { label, examples } of rows) {
    assert.is(examples.length, COLUMNS.length, label);
    examples.forEach((example, column) => {
      const language = COLUMNS[column]!;
      const agent = label === 'loan_renewal_interest' ? LOAN_CONTEXT[language]! : 'Hello.';
      const call = [
        { speaker: 'agent', text: agent, start_time: 0, end_time: 3 },
        { speaker: 'customer', text: example, start_time: 3.5, end_time: 7 },
      ];
      assert.is(detectIntent(call, language), label, `${language}: ${example}`);
    });
  }
});

test.run();
