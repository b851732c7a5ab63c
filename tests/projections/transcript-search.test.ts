// The transcript search projection and its queries, given events → rows and results: partial words in every
// script, normalisation, short queries, the 5-second phrase rule on both sides, highlights, order, filters, isolation.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { searchTranscripts, type TranscriptSearch } from '../../projections/transcript-search-queries.ts';
import { highlightWords, normaliseForSearch, searchWords } from '../../projections/search-text.ts';
import { searchIndex, transcriptEvents } from '../support/search-events.ts';

const index = searchIndex();
const segment = (speaker: string, text: string, start_time: number, end_time: number) => ({ speaker, text, start_time, end_time });

index.apply([
  ...transcriptEvents({
    workspaceId: 'ws_a', jobId: 'job_call1', language: 'en-IN',
    call: { callId: 'cal_1', campaignId: 'cmp_1', startedAt: '2026-03-01T10:00:00.000Z', timelineStartedAt: '2026-03-01T10:00:02.000Z' },
    segments: [
      segment('agent', 'Your loan is due for Renewal this month.', 0, 4),
      segment('customer', 'I want to renew it.', 5, 8),
      segment('agent', 'The interest rate is lower now.', 8.5, 12),
      segment('customer', 'Good, send the papers.', 17, 20),
    ],
  }),
  ...transcriptEvents({
    workspaceId: 'ws_a', jobId: 'job_hindi', language: 'hi-IN', submittedAt: '2026-03-02T09:00:00.000Z',
    segments: [
      segment('agent', 'नमस्ते, आपके ऋण का नवीनीकरण बाकी है।', 0, 3),
      segment('customer', 'मुझे क़र्ज़ की जानकारी चाहिए।', 3.5, 6),
    ],
  }),
  ...transcriptEvents({
    workspaceId: 'ws_a', jobId: 'job_south', language: 'ta-IN', submittedAt: '2026-02-27T09:00:00.000Z',
    segments: [
      segment('agent', 'வணக்கம், உங்கள் கடன் புதுப்பித்தல்', 0, 3),
      segment('customer', 'నమస్కారం, రుణం పునరుద్ధరణ', 3, 6),
      segment('customer', 'माझे कर्ज नूतनीकरण करा', 6, 9),
      segment('agent', 'He said **free** and _maybe_ \\o/', 9, 12),
    ],
  }),
  ...transcriptEvents({
    workspaceId: 'ws_b', jobId: 'job_other', submittedAt: '2026-03-05T09:00:00.000Z',
    segments: [segment('agent', 'Your loan is due for renewal this month.', 0, 4)],
  }),
]);

function search(query: string, options: Partial<TranscriptSearch> = {}) {
  return searchTranscripts(index.db, { workspaceId: 'ws_a', words: searchWords(query), limit: 20, offset: 0, ...options });
}

test('rows: a call transcript carries its call, campaign, language and the call timeline start; a job has none', () => {
  const rows = index.db.prepare('SELECT job_id, call_id, campaign_id, language, started_at, speaker, start_time FROM search_segments WHERE workspace_id = ? ORDER BY segment_id').all('ws_a') as any[];
  assert.is(rows.length, 10);
  assert.equal(rows[0], { job_id: 'job_call1', call_id: 'cal_1', campaign_id: 'cmp_1', language: 'en-IN', started_at: '2026-03-01T10:00:02.000Z', speaker: 'agent', start_time: 0 });
  assert.equal(rows[4], { job_id: 'job_hindi', call_id: null, campaign_id: null, language: 'hi-IN', started_at: '2026-03-02T09:00:00.000Z', speaker: 'agent', start_time: 0 });
  const indexed = index.db.prepare('SELECT count(*) AS n FROM search_segments_fts').get() as { n: number };
  assert.is(indexed.n, 11);
});

test('partial words, any case: "RENEW" finds "Renewal" and "renew"; the result is shaped as the spec says', () => {
  const { total, results } = search('RENEW');
  assert.is(total, 2);
  assert.equal(results[0], {
    call_id: 'cal_1', job_id: 'job_call1', campaign_id: 'cmp_1', timestamp: '2026-03-01T10:00:02.000Z', speaker: 'agent',
    text: 'Your loan is due for **Renew**al this month.', start_time: 0, end_time: 4, other_segments: [],
  });
  assert.is(results[1]!.text, 'I want to **renew** it.');
  assert.is(results[1]!.timestamp, '2026-03-01T10:00:07.000Z');
});

test('every script: Devanagari (Hindi, Marathi), Tamil and Telugu substrings', () => {
  assert.equal(search('नवीनी').results.map((r) => r.text), ['नमस्ते, आपके ऋण का **नवीनी**करण बाकी है।']);
  assert.equal(search('नूतनी').results.map((r) => r.text), ['माझे कर्ज **नूतनी**करण करा']);
  assert.equal(search('புதுப்பி').results.map((r) => r.text), ['வணக்கம், உங்கள் கடன் **புதுப்பி**த்தல்']);
  assert.equal(search('పునరుద్ధ').results.map((r) => r.text), ['నమస్కారం, రుణం **పునరుద్ధ**రణ']);
});

test('normalisation: a nukta and zero-width joiners are ignored; the highlight is on the original text', () => {
  // "कर्ज" typed without nuktas finds "क़र्ज़" (and Marathi "कर्ज"); with a ZWJ too.
  const { results } = search('कर्\u200Dज');
  assert.equal(results.map((r) => r.text).sort(), ['माझे **कर्ज** नूतनीकरण करा', 'मुझे **क़र्ज़** की जानकारी चाहिए।'].sort());
  // NFD input finds NFC text.
  assert.is(search('नवीनी'.normalize('NFD')).total, 1);
});

test('normalisation: the Telugu nukta (U+0C3C) and the other Indic nuktas are ignored like the Devanagari one', () => {
  const nukta = searchIndex();
  nukta.apply(transcriptEvents({ workspaceId: 'ws_a', jobId: 'job_te', language: 'te-IN', segments: [segment('customer', 'నా జ\u0C3Cీతం ఆలస్యం', 0, 3), segment('agent', 'ਖ\u0A3Cਬਰ ਠੀਕ', 4, 6)] }));
  const find = (query: string) => searchTranscripts(nukta.db, { workspaceId: 'ws_a', words: searchWords(query), limit: 20, offset: 0 });
  // Typed without the nukta, with it, and the other way round: one word.
  assert.equal(find('జీతం').results.map((r) => r.text), ['నా **జ\u0C3Cీతం** ఆలస్యం']);
  assert.is(find('జ\u0C3Cీతం').total, 1);
  assert.is(find('ਖਬਰ').total, 1, 'Gurmukhi');
  assert.is(normaliseForSearch('க\u0BCDஃ'), 'க\u0BCDஃ', 'Tamil has no nukta: the aytham stays');
});

test('queries of one or two characters use the fallback and match substrings', () => {
  assert.is(search('ऋ').total, 1);
  assert.is(search('ga').total, 0);
  assert.equal(search('it').results.map((r) => r.text), ['I want to renew **it**.']);
  assert.is(search('is').total, 2, '"is ... this" in one segment, "rate is" in another');
});

test('the 5-second rule: each other word within 5 s of the first word\'s segment, on both sides of the boundary', () => {
  // "loan" 0-4, "interest" 8.5-12: 4.5 s apart → match, with the other segment named.
  const near = search('loan interest');
  assert.is(near.total, 1);
  assert.equal(near.results[0]!.other_segments, [{ speaker: 'agent', text: 'The **interest** rate is lower now.', start_time: 8.5, end_time: 12 }]);
  assert.is(near.results[0]!.text, 'Your **loan** is due for Renewal this month.');
  // "interest" 8.5-12 and "papers" 17-20: 5 s apart exactly → match; "loan" 0-4 and "papers": 13 s → none.
  assert.is(search('interest papers').total, 1);
  assert.is(search('loan papers').total, 0);
  assert.is(search('renew papers').total, 0, '"renew" at 5-8 is 9 s before "papers"');
  // Both words in one segment, in any order: no other segment.
  const same = search('month loan');
  assert.is(same.total, 1);
  assert.equal(same.results[0]!.other_segments, []);
  // The first word anchors the result: "renew interest" has two anchors, both within reach.
  assert.equal(search('renew interest').results.map((r) => r.start_time), [0, 5]);
});

test('the 5-second boundary itself: 5.0 s apart matches, 5.01 s does not', () => {
  const boundary = searchIndex();
  boundary.apply(transcriptEvents({ workspaceId: 'ws_a', jobId: 'job_edge', segments: [segment('agent', 'alpha', 0, 1), segment('customer', 'bravo', 6, 7), segment('agent', 'charlie', 12.01, 13)] }));
  const find = (query: string) => searchTranscripts(boundary.db, { workspaceId: 'ws_a', words: searchWords(query), limit: 20, offset: 0 }).total;
  assert.is(find('alpha bravo'), 1);
  assert.is(find('bravo alpha'), 1);
  assert.is(find('bravo charlie'), 0);
  assert.is(find('charlie bravo'), 0);
  assert.is(find('alpha bravo charlie'), 0, 'every word must be within reach of the first');
});

test('highlights escape the original markdown so no text can forge a marker', () => {
  const { results } = search('free');
  assert.is(results[0]!.text, 'He said \\*\\***free**\\*\\* and \\_maybe\\_ \\\\o/');
  assert.is(highlightWords('ab*cd', ['*']), 'ab**\\***cd');
  assert.is(highlightWords('Loan LOAN loan', ['loan']), '**Loan** **LOAN** **loan**');
});

test('order: newest transcript first, then by time in it; total exact; limit and offset', () => {
  const all = search('ा');
  assert.equal(
    all.results.map((r) => `${r.job_id}@${r.start_time}`),
    ['job_hindi@0', 'job_hindi@3.5', 'job_south@6'],
  );
  const everything = search('n');
  assert.equal(
    everything.results.map((r) => `${r.job_id}@${r.start_time}`),
    ['job_call1@0', 'job_call1@5', 'job_call1@8.5', 'job_call1@17', 'job_south@9'],
  );
  const page = search('n', { limit: 2, offset: 1 });
  assert.equal(page.total, everything.total);
  assert.equal(page.results, everything.results.slice(1, 3));
  assert.equal(search('n', { offset: 1000 }), { total: 5, results: [] });
});

test('filters: date range, language, campaign, call, speaker', () => {
  assert.is(search('an').total, search('an', { from: '2026-01-01T00:00:00.000Z' }).total);
  assert.equal(search('ा', { from: '2026-03-02T00:00:00.000Z', to: '2026-03-02T23:59:59.999Z' }).results.map((r) => r.job_id), ['job_hindi', 'job_hindi']);
  assert.equal(search('ा', { to: '2026-03-01T23:59:59.999Z' }).results.map((r) => r.job_id), ['job_south']);
  assert.equal(search('ा', { language: 'hi-IN' }).results.map((r) => r.job_id), ['job_hindi', 'job_hindi']);
  assert.is(search('renew', { campaignId: 'cmp_1' }).total, 2);
  assert.is(search('renew', { campaignId: 'cmp_2' }).total, 0);
  assert.is(search('renew', { callId: 'cal_1', speaker: 'customer' }).total, 1);
});

test('isolation: identical text in another workspace never appears', () => {
  const { results } = search('due for renewal this month');
  assert.equal(results.map((r) => r.job_id), ['job_call1']);
  const other = searchTranscripts(index.db, { workspaceId: 'ws_b', words: searchWords('renewal'), limit: 20, offset: 0 });
  assert.equal(other.results.map((r) => r.job_id), ['job_other']);
});

test('FTS5 syntax in user input is literal text, never an error', () => {
  for (const query of ['"', '""', '*', 'loan*', 'NEAR(', 'NEAR(loan interest, 2)', '-', '-loan', 'text:loan', ':', '(', ')', '((loan', 'a OR b', 'AND', '^loan', '%', '_', '\\', "'", 'x'.repeat(200)]) {
    const { total } = search(query);
    assert.type(total, 'number', query);
  }
  assert.is(search('loan*').total, 0, 'no prefix operator: the star is a character');
  assert.is(search('due for').total, 1);
});

test.run();
