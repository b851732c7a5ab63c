/**
 * npm run bench:analytics — call and QA analytics at scale, through the real command handler and read models.
 *
 * 1. Generates BENCH_CALLS calls (default 1,000,000; the issue's scale) over 90 days in one workspace: 50 campaigns,
 *    20 agents (a fifth of the calls have one), 5 languages, ~60% connected; each connected call gets a transcript
 *    job of 6-12 segments in its language (the sandbox callees' sample replies), completed with sentiment, intent
 *    and a QA score. Every fact goes through the deciders and the command handler (PlaceCall, RecordCallResult,
 *    SubmitTranscriptionJob, StartTranscriptionJob, CompleteTranscriptionJob), many commands in flight so the event
 *    store commits them in groups; the read models follow. Prints events/s of the whole build and read.db's size.
 * 2. Serves the real HTTP app on loopback and times 50 requests each (after a warm-up), p50/p99 in ms:
 *    `/analytics/calls` 30 days by day, 90 days by agent, the same in other zones (Asia/Kolkata, Europe/London,
 *    America/New_York by week across its DST change, Asia/Kathmandu at +05:45), with datetime bounds inside a
 *    15-minute bucket, with two filters; `/analytics/qa` 30 days, in Europe/London, with datetime bounds;
 *    `/analytics/search` first pages (rare term, common term, two characters, three-word phrase), each with its
 *    first (cold) request's time, the same search counted afresh in this thread (no remembered total) and a bare
 *    FTS5 MATCH count of its first word.
 * Env: BENCH_CALLS, BENCH_KEEP=1 (keep DATA_DIR), BENCH_DATA_DIR=path: seed into that directory and keep it; when
 * it already holds a seeded read.db, skip the generation and measure that data again (a new read-only key is
 * created; BENCH_CALLS is then ignored), so a 1,000,000-call seed (13-15 min) is built once. With it,
 * BENCH_CATCH_UP_SECONDS=n lets the read models catch up for at most n seconds, then stops them and measures what
 * they hold (a seed cut short, or whose projections lag behind its events). BENCH_SEARCH_ONLY=1 measures search only.
 */
import { serve } from '@hono/node-server';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '../composition.ts';
import { apiKeyDecider, apiKeyStream } from '../domain/api-key.ts';
import { callDecider, callStream, type CallCommand } from '../domain/call.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptionJobCommand } from '../domain/transcription-job.ts';
import { workspaceDecider, workspaceStream } from '../domain/workspace.ts';
import { createHttpApp } from '../http/app.ts';
import { sampleReplies, type SampleReplyLanguage } from '../infra/analysis/customer-reply-samples.ts';
import { loadConfig } from '../infra/config.ts';
import { hashApiKeySecret, newApiKeySecret } from '../infra/crypto/api-key-secret.ts';
import { createLogger } from '../infra/logger.ts';
import { apiKeysProjection } from '../projections/api-keys.ts';
import { searchWords } from '../projections/search-text.ts';
import { searchTranscripts, wordExpression } from '../projections/transcript-search-queries.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000_000);
const DAYS = 90;
const FIRST_DAY = Date.parse('2026-01-01T00:00:00Z');
const LANGUAGES = [
  ['hi-IN', 'hi'],
  ['ta-IN', 'ta'],
  ['en-IN', 'en'],
  ['te-IN', 'te'],
  ['mr-IN', 'mr'],
] as const;
const INTENTS = ['loan_renewal_interest', 'complaint', 'payment_query', 'dnd_request', null] as const;
const AGENT_LINES: Record<string, string> = {
  hi: 'नमस्ते, मैं सहाय फाइनेंस से बोल रही हूँ, आपके लोन के नवीनीकरण के बारे में।',
  ta: 'வணக்கம், உங்கள் கடன் புதுப்பித்தல் பற்றி சஹாய் ஃபைனான்ஸிலிருந்து அழைக்கிறேன்.',
  en: 'Hello, this is Asha from Sahay Finance about renewing your loan.',
  te: 'నమస్తే, మీ రుణ పునరుద్ధరణ గురించి సహాయ్ ఫైనాన్స్ నుండి మాట్లాడుతున్నాను.',
  mr: 'नमस्कार, मी सहाय फायनान्सकडून तुमच्या कर्जाच्या नूतनीकरणाबद्दल बोलत आहे.',
};

/** A small deterministic generator: the same data every run. */
let seed = 42;
function random(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** One call in RARE_EVERY says the rare word, for the rare-term query. */
const RARE_EVERY = 10_000;
const RARE_WORD = 'zanzibar';

function segmentsFor(language: string, count: number, rare: boolean) {
  const replies = Object.values(sampleReplies[language as SampleReplyLanguage]).flat();
  return Array.from({ length: count }, (_, index) => ({
    speaker: index % 2 === 0 ? 'agent' : 'customer',
    text: rare && index === 1 ? `I moved to ${RARE_WORD} last year.` : index % 2 === 0 ? AGENT_LINES[language]! : pick(replies),
    start_time: index * 5,
    end_time: index * 5 + 4,
    confidence: 0.9,
  }));
}

async function main(): Promise<void> {
  const keptDir = process.env.BENCH_DATA_DIR;
  const reuse = keptDir !== undefined && existsSync(join(keptDir, 'read.db'));
  if (keptDir !== undefined) mkdirSync(keptDir, { recursive: true });
  const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'bench-analytics-'));
  const config = loadConfig({ DATA_DIR: dataDir, EVENTSTORE_SYNC: 'normal', CLOCK: 'manual', CLOCK_START: '2026-04-01T00:00:00Z' });
  // Read models only: no process manager reacts to the generated calls.
  const runtime = createRuntime(config, createLogger('silent'), () => []);
  await runtime.start();
  const { searchDb } = runtime;
  const workspaceId = 'ws_bench';
  const now = runtime.clock.now();
  const context = () => ({ workspaceId, actor: 'bench', now });
  if (!reuse) await runtime.commands.handle(workspaceDecider, workspaceStream(workspaceId), { type: 'CreateWorkspace', workspaceId, name: 'bench', now }, context());
  const key = newApiKeySecret();
  const keyId = reuse ? `key_bench${Date.now()}` : 'key_bench';
  const keyCreated = await runtime.commands.handle(apiKeyDecider, apiKeyStream(keyId), { type: 'CreateApiKey', keyId, workspaceId, name: 'bench', scope: 'Read-Only', secretHash: hashApiKeySecret(key), now }, context());

  const campaigns = Array.from({ length: 50 }, (_, index) => `cmp_bench${String(index).padStart(2, '0')}`);
  const agents = Array.from({ length: 20 }, (_, index) => `agt_bench${String(index).padStart(2, '0')}`);
  let events = 0;
  const generateCall = async (index: number) => {
    const callId = `cal_bench${index}`;
    const [language, lexicon] = pick(LANGUAGES);
    const startedAt = new Date(FIRST_DAY + Math.floor((index / CALLS) * DAYS * 86_400_000) + Math.floor(random() * 60_000));
    const connected = random() < 0.6;
    const duration = connected ? 20 + Math.floor(random() * 200) : 0;
    const at = (seconds: number) => new Date(startedAt.getTime() + seconds * 1000).toISOString();
    const handleCall = (command: CallCommand) => runtime.commands.handle(callDecider, callStream(callId), command, context());
    const agentId = random() < 0.2 ? pick(agents) : null;
    const placed = await handleCall({
      type: 'PlaceCall',
      facts: { suppressed: false, script: null, agent_found: true },
      data: {
        call_id: callId,
        workspace_id: workspaceId,
        campaign_id: pick(campaigns),
        contact_index: index,
        attempt: 1,
        contact: { phone: `+91${9_000_000_000 + index}`, name: `Customer ${index}` },
        language,
        script_id: 'scr_bench',
        script_version: 1,
        variables: {},
        recording_enabled: false,
        started_at: startedAt.toISOString(),
        agent_id: agentId,
      },
    });
    const ended = await handleCall({
      type: 'RecordCallResult',
      data: { answered_at: connected ? at(3) : null, turns: [], escalation: null, disposition: connected ? 'interested' : 'not_reachable', duration_seconds: duration, ended_at: at(3 + duration) },
    });
    events += placed.events.length + ended.events.length;
    if (!connected) return;
    const jobId = `job_bench${index}`;
    const handleJob = (command: TranscriptionJobCommand) => runtime.commands.handle(transcriptionJobDecider, transcriptionJobStream(jobId), command, context());
    const transcript = segmentsFor(lexicon, 6 + Math.floor(random() * 7), index % RARE_EVERY === 0);
    const submitted = await handleJob({
      type: 'SubmitTranscriptionJob',
      data: {
        job_id: jobId,
        workspace_id: workspaceId,
        audio_url: null,
        transcript,
        language,
        speakers: 2,
        features: ['transcription', 'sentiment', 'intent', 'qa_scoring'],
        qa_scorecard_id: 'qsc_bench',
        qa_scorecard: { scorecard_id: 'qsc_bench', version: 1, definition: {} },
        metadata: null,
        call_id: callId,
        disposition: 'interested',
        submitted_at: at(4 + duration),
      },
    });
    const started = await handleJob({ type: 'StartTranscriptionJob', data: { attempt: 1, started_at: at(5 + duration) } });
    const greeting = random() < 0.8 ? 10 : 0;
    const courtesy = Math.round(random() * 10);
    const overall = Math.round(((greeting + courtesy) / 20) * 1000) / 10;
    const completed = await handleJob({
      type: 'CompleteTranscriptionJob',
      data: {
        attempt: 1,
        completed_at: at(6 + duration),
        result: {
          transcript,
          summary: null,
          sentiment: { overall: Math.round((random() * 2 - 1) * 100) / 100, by_speaker: {} },
          intent: pick(INTENTS),
          qa_score: {
            overall_score: overall,
            passed: overall >= 70,
            pass_threshold: 70,
            parameter_scores: [
              { parameter_name: 'greeting', score: greeting, max_score: 10, passed: greeting > 0 },
              { parameter_name: 'courtesy', score: courtesy, max_score: 10, passed: courtesy >= 5 },
            ],
          },
          duration_seconds: duration,
        },
      },
    });
    events += submitted.events.length + started.events.length + completed.events.length;
  };

  const buildStarted = performance.now();
  const IN_FLIGHT = 256;
  let next = 0;
  let lastReport = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (!reuse && next < CALLS) {
        const index = next++;
        await generateCall(index);
        if (performance.now() - lastReport > 10_000) {
          lastReport = performance.now();
          console.log(`  ${index.toLocaleString('en')} calls, ${events.toLocaleString('en')} events, ${((performance.now() - buildStarted) / 1000).toFixed(0)} s`);
        }
      }
    }),
  );
  const catchUpSeconds = Number(process.env.BENCH_CATCH_UP_SECONDS ?? NaN);
  if (reuse && Number.isFinite(catchUpSeconds)) {
    // A seed whose read models lag far behind its events (the generator outran them): measure what they hold
    // after this long, frozen (the projections stop), rather than wait for them.
    // (The projections apply in the background meanwhile; `catchUp` would run a loop of its own that stop() does
    // not end.)
    await new Promise((resolve) => setTimeout(resolve, catchUpSeconds * 1000));
    await runtime.projections.stop();
    // The new key's event lies behind the ones not applied: apply it to the API key read model alone (its insert
    // is idempotent, so a later catch-up applying it again changes nothing).
    const applyKey = apiKeysProjection.prepare(runtime.readDb) as (event: unknown) => void;
    for (const event of await runtime.store.readAll({ after: keyCreated.position - 1, limit: 1 })) applyKey(event);
  } else await runtime.projections.catchUp();
  const indexed = searchDb.prepare('SELECT (SELECT count(*) FROM search_jobs) AS transcripts, (SELECT sum(segments) FROM search_workspaces) AS segments').get() as { transcripts: number; segments: number };
  console.log(`search index: ${indexed.transcripts.toLocaleString('en')} transcripts, ${indexed.segments.toLocaleString('en')} segments`);
  const buildSeconds = (performance.now() - buildStarted) / 1000;
  const readDbBytes = statSync(join(dataDir, 'read.db')).size + (statSync(join(dataDir, 'read.db-wal'), { throwIfNoEntry: false })?.size ?? 0);
  if (reuse) console.log(`reused the seeded DATA_DIR ${dataDir} (caught up in ${buildSeconds.toFixed(1)} s)`);
  else console.log(`generated ${CALLS.toLocaleString('en')} calls (${events.toLocaleString('en')} events) in ${buildSeconds.toFixed(1)} s: ${Math.round(events / buildSeconds).toLocaleString('en')} events/s appended and projected`);
  console.log(`read.db: ${(readDbBytes / 1024 / 1024).toFixed(0)} MB`);
  // Before the server starts: reading dbstat over read.db holds this thread for a while.
  const searchIndexBytes = (searchDb.prepare("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'search%'").get() as { bytes: number }).bytes;
  console.log(`search index (search_* tables and their indexes): ${(searchIndexBytes / 1024 / 1024).toFixed(0)} MB`);

  const app = createHttpApp(runtime);
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const headers = { authorization: `Bearer ${key}` };
  const measure = async (label: string, path: string, target: string) => {
    // The first request after this thread was busy (the bare MATCH loops below) may find its kept-alive socket
    // closed by the server meanwhile: try that one again on a fresh connection.
    const coldStarted = performance.now();
    await (await fetch(base + path, { headers }).catch(() => fetch(base + path, { headers }))).arrayBuffer();
    const cold = performance.now() - coldStarted;
    for (let warm = 1; warm < 5; warm += 1) await (await fetch(base + path, { headers })).arrayBuffer();
    const times: number[] = [];
    let body = '';
    for (let run = 0; run < 50; run += 1) {
      const started = performance.now();
      const response = await fetch(base + path, { headers });
      body = await response.text();
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`${label.padEnd(52)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms  (target ${target})`);
    return { body: JSON.parse(body) as Record<string, unknown>, p50: percentile(times, 50), cold };
  };
  const searchOnly = process.env.BENCH_SEARCH_ONLY === '1';
  if (!searchOnly) {
  const { body: month } = await measure('/analytics/calls 30 days, group_by=day', '/v1/analytics/calls?from=2026-02-01&to=2026-03-02&group_by=day', 'p50 <= 20, p99 <= 50');
  await measure('/analytics/calls 90 days, group_by=agent', '/v1/analytics/calls?from=2026-01-01&to=2026-03-31&group_by=agent', 'p50 <= 20, p99 <= 50');
  await measure('/analytics/calls 30 days by day, Asia/Kolkata', '/v1/analytics/calls?from=2026-02-01&to=2026-03-02&group_by=day&timezone=Asia/Kolkata', 'p50 <= 20, p99 <= 50');
  await measure('/analytics/calls 30 days by day, Europe/London', '/v1/analytics/calls?from=2026-02-01&to=2026-03-02&group_by=day&timezone=Europe/London', 'p50 <= 20, p99 <= 50');
  await measure('/analytics/calls March by week, America/New_York (DST)', '/v1/analytics/calls?from=2026-03-01&to=2026-03-31&group_by=week&timezone=America/New_York', 'p50 <= 20, p99 <= 50');
  await measure('/analytics/calls 90 days by agent, Asia/Kathmandu', '/v1/analytics/calls?from=2026-01-01&to=2026-03-31&group_by=agent&timezone=Asia/Kathmandu', 'p50 <= 20, p99 <= 50');
  await measure('/analytics/calls 30 days by day, datetime bounds', '/v1/analytics/calls?from=2026-02-01T10:07:00Z&to=2026-03-02T16:53:20Z&group_by=day', 'p50 <= 20, p99 <= 50');
  await measure('/analytics/calls 90 days, campaign + agent filter', '/v1/analytics/calls?from=2026-01-01&to=2026-03-31&campaign_id=cmp_bench07&agent_id=agt_bench03', 'p50 <= 20, p99 <= 50');
  await measure('/analytics/qa 30 days', '/v1/analytics/qa?from=2026-02-01&to=2026-03-02', 'p50 <= 20, p99 <= 50');
  await measure('/analytics/qa 30 days, Europe/London', '/v1/analytics/qa?from=2026-02-01&to=2026-03-02&timezone=Europe/London', 'p50 <= 20, p99 <= 50');
  await measure('/analytics/qa 30 days, datetime bounds', '/v1/analytics/qa?from=2026-02-01T10:07:00Z&to=2026-03-02T16:53:20Z', 'p50 <= 20, p99 <= 50');
  console.log(`  30 days: ${month.total_calls} calls, ${month.connected_calls} connected`);
  }

  // Search: the first page of each kind of query, and a bare FTS5 MATCH count of its first word in the same run.
  const bareMatch = searchDb.prepare('SELECT count(*) AS n FROM search_segments_fts WHERE search_segments_fts MATCH ?');
  const searches: Array<[string, string]> = [
    ['rare term', RARE_WORD],
    ['common term', 'loan'],
    ['two characters', 'go'],
    ['three-word phrase (5 s rule)', 'renewing your loan'],
  ];
  for (const [kind, query] of searches) {
    let measured: Awaited<ReturnType<typeof measure>>;
    try {
      measured = await measure(`/analytics/search ${kind}`, `/v1/analytics/search?query=${encodeURIComponent(query)}`, 'p50 <= 10, p99 <= 50');
    } catch (error) {
      console.log(`/analytics/search ${kind}: failed: ${(error as Error).message} ${String((error as Error).cause ?? '')}`);
      continue;
    }
    const { body: result, p50, cold } = measured;
    const firstWord = searchWords(query)[0]!;
    const expression = wordExpression(runtime.readDb, firstWord)!;
    const times: number[] = [];
    for (let run = 0; run < 50; run += 1) {
      const started = performance.now();
      bareMatch.get(expression);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const bare = percentile(times, 50);
    // The same search in this thread with no remembered total (every total counted afresh, as before totals were
    // remembered), without HTTP: what a first request pays.
    const fresh: number[] = [];
    for (let run = 0; run < 20; run += 1) {
      const started = performance.now();
      const counted = searchTranscripts(searchDb, { workspaceId, words: searchWords(query), limit: 20, offset: 0 });
      fresh.push(performance.now() - started);
      if (counted.total !== result.total_matches) throw new Error(`${query}: ${counted.total} counted afresh, ${String(result.total_matches)} over HTTP`);
    }
    fresh.sort((a, b) => a - b);
    console.log(
      `  total_matches ${result.total_matches}; first (cold) request ${cold.toFixed(1)} ms; counted afresh in-process p50 ${percentile(fresh, 50).toFixed(1)} ms p99 ${percentile(fresh, 99).toFixed(1)} ms; ` +
        `bare MATCH count of "${firstWord}" p50 ${bare.toFixed(2)} ms; ratio ${(p50 / bare).toFixed(p50 / bare < 1 ? 2 : 1)}×`,
    );
  }
  server.close();
  await runtime.close();
  if (process.env.BENCH_KEEP === '1' || keptDir !== undefined) console.log(`DATA_DIR kept: ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
}

await main();
