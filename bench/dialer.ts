/**
 * npm run bench:dialer — campaigns through the real runtime (SQLite event store, every read model, the dialing
 * process managers, the sandbox carrier, the real conversation engine), in-process:
 *   1. a campaign of BENCH_CONTACTS (default 100,000) contacts, recording off: time of the CreateCampaign command
 *      until the read models show it, calls per second end to end (from the start until the last outcome is
 *      appended and every read model has caught up), time to `completed`, peak RSS;
 *   2. a campaign of 100 contacts with recording on: seconds of call audio synthesised (stereo WAVs written) per
 *      second of wall time.
 * Env: BENCH_CONTACTS, BENCH_CONCURRENCY (the workspace's dialing concurrency, default 10 as for a new
 * workspace), BENCH_ALL_PROCESSES=1 (run every process manager of the server, e.g. transcripts and webhooks,
 * not only dialing), BENCH_RECORDED_LANGUAGE (default hi-IN), EVENTSTORE_SYNC (default full).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allProcessManagers, createRuntime, type Runtime } from '../composition.ts';
import { callDecider, callStream, type CallEvent } from '../domain/call.ts';
import { campaignDecider, campaignStream } from '../domain/campaign.ts';
import { scriptDecider, scriptStream, scriptVariables } from '../domain/script.ts';
import { fold } from '../domain/shared/decider.ts';
import { workspaceDecider, workspaceStream } from '../domain/workspace.ts';
import { loadConfig } from '../infra/config.ts';
import { newId } from '../infra/ids.ts';
import { deterministicId } from '../domain/shared/deterministic-id.ts';
import { createLogger } from '../infra/logger.ts';
import { createDialingProcesses } from '../processes/calling/dialing.ts';
import { scripts } from '../tests/processes/calling/fixtures.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
const RECORDED_CONTACTS = 100;
const RECORDED_LANGUAGE = process.env.BENCH_RECORDED_LANGUAGE ?? 'hi-IN';

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

function contacts(count: number, offset: number) {
  // Last two digits 03..07 and others: answered calls with every conversation outcome, plus 00/01/02 rows.
  return Array.from({ length: count }, (_, index) => ({
    phone: `+91${String(9_000_000_000 + offset + index)}`,
    name: `Customer ${index}`,
    loan_amount: 1000 + (index % 50) * 100,
  }));
}

async function setUp(dataDir: string): Promise<{ runtime: Runtime; workspaceId: string; context: () => { workspaceId: string; actor: string; now: Date } }> {
  // Calls end at once on the clock (SANDBOX_SPEED): the bench measures the service, not the callees' talk time.
  const config = loadConfig({ DATA_DIR: dataDir, EVENTSTORE_SYNC: process.env.EVENTSTORE_SYNC ?? 'full', SANDBOX_SPEED: process.env.SANDBOX_SPEED ?? '1000000000' });
  const runtime = createRuntime(config, createLogger('silent'), (rt) => (process.env.BENCH_ALL_PROCESSES === '1' ? allProcessManagers(rt) : createDialingProcesses(rt)));
  await runtime.start();
  const workspaceId = newId('ws');
  const context = () => ({ workspaceId, actor: 'bench', now: runtime.clock.now() });
  await runtime.commands.handle(workspaceDecider, workspaceStream(workspaceId), { type: 'CreateWorkspace', workspaceId, name: 'bench', now: runtime.clock.now() }, context());
  await runtime.commands.handle(workspaceDecider, workspaceStream(workspaceId), { type: 'SetDialingConcurrency', limit: CONCURRENCY }, context());
  return { runtime, workspaceId, context };
}

async function runCampaign(runtime: Runtime, workspaceId: string, context: () => { workspaceId: string; actor: string; now: Date }, options: { count: number; offset: number; recording: boolean; language: string; script: typeof scripts.en }) {
  const scriptId = newId('scr');
  await runtime.commands.handle(scriptDecider, scriptStream(scriptId), { type: 'CreateScript', scriptId, workspaceId, script: options.script, now: runtime.clock.now() }, context());
  const campaignId = newId('cmp');
  const list = contacts(options.count, options.offset);
  const createStarted = performance.now();
  const created = await runtime.commands.handle(campaignDecider, campaignStream(campaignId), {
    type: 'CreateCampaign',
    facts: { script: { version: 1, variables: scriptVariables(options.script) } },
    data: { campaign_id: campaignId, workspace_id: workspaceId, script_id: scriptId, name: 'bench', language: options.language, contacts: list, recording_enabled: options.recording, created_at: runtime.clock.now().toISOString() },
  }, context());
  await runtime.projections.waitForPosition(created.position, 120_000);
  const createSeconds = (performance.now() - createStarted) / 1000;

  const started = performance.now();
  await runtime.commands.handle(campaignDecider, campaignStream(campaignId), { type: 'StartCampaign', data: { at: runtime.clock.now().toISOString(), trigger: 'manual' } }, context());
  // Watch the campaign's own stream for its completion (new events only; no refold of 100,000 contacts).
  let revision = created.revision;
  let completedAt = 0;
  let lastReport = started;
  let attempts = 0;
  while (!completedAt) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const event of await runtime.store.readStream(campaignStream(campaignId), { fromRevision: revision + 1 })) {
      revision = event.revision;
      if (event.type === 'ContactAttemptStarted') attempts++;
      if (event.type === 'CampaignCompleted') completedAt = performance.now();
    }
    if (performance.now() - lastReport > 5_000) {
      lastReport = performance.now();
      process.stdout.write(`  … ${attempts} calls placed, ${(attempts / ((lastReport - started) / 1000)).toFixed(0)}/s\n`);
    }
  }
  await runtime.projections.waitForPosition(await runtime.store.headPosition(), 300_000);
  const caughtUp = performance.now();
  return { campaignId, createSeconds, completedSeconds: (completedAt - started) / 1000, endToEndSeconds: (caughtUp - started) / 1000, attempts };
}

async function recordedAudioSeconds(runtime: Runtime, campaignId: string, attempts: number): Promise<number> {
  let seconds = 0;
  for (let index = 0; index < attempts; index++) {
    const events = await runtime.store.readStream(callStream(deterministicId('cal', campaignId, index, 1)));
    const state = fold(callDecider, events.map((event) => ({ type: event.type, data: event.data }) as CallEvent));
    const stored = events.find((event) => event.type === 'CallRecordingStored');
    if (stored && state.status === 'completed') seconds += Number(stored.data.duration_seconds);
  }
  return seconds;
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-dialer-'));
try {
  const { runtime, workspaceId, context } = await setUp(dataDir);
  console.log(`bench:dialer — ${CONTACTS.toLocaleString('en')} contacts, dialing concurrency ${CONCURRENCY}, EVENTSTORE_SYNC=${process.env.EVENTSTORE_SYNC ?? 'full'}, processes: ${process.env.BENCH_ALL_PROCESSES === '1' ? 'all' : 'dialing only'}`);
  const big = await runCampaign(runtime, workspaceId, context, { count: CONTACTS, offset: 0, recording: false, language: 'en-IN', script: scripts.en });
  console.log(`create (CreateCampaign + read models caught up): ${big.createSeconds.toFixed(2)} s   (target ≤ 5 s)`);
  console.log(`time to completed:                                 ${big.completedSeconds.toFixed(1)} s`);
  console.log(`calls end to end (read models caught up):          ${(big.attempts / big.endToEndSeconds).toFixed(0)} calls/s over ${big.endToEndSeconds.toFixed(1)} s   (target ≥ 300)`);
  // The kernel's figure as well as our samples: a sampler can miss a short peak.
  peakRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  console.log(`peak RSS:                                          ${(peakRss / 1024 / 1024).toFixed(0)} MB   (target ≤ 500 MB)`);

  if (process.env.BENCH_RECORDED !== '0') await recordedCampaign(runtime, workspaceId, context);
  await runtime.close();
} finally {
  clearInterval(sampler);
  rmSync(dataDir, { recursive: true, force: true });
}

async function recordedCampaign(runtime: Awaited<ReturnType<typeof setUp>>['runtime'], workspaceId: string, context: Awaited<ReturnType<typeof setUp>>['context']): Promise<void> {
  const recordedStarted = performance.now();
  const recorded = await runCampaign(runtime, workspaceId, context, {
    count: RECORDED_CONTACTS,
    offset: CONTACTS,
    recording: true,
    language: RECORDED_LANGUAGE,
    script: RECORDED_LANGUAGE.startsWith('en') ? scripts.en : scripts.hi,
  });
  const wall = (performance.now() - recordedStarted) / 1000;
  const audio = await recordedAudioSeconds(runtime, recorded.campaignId, recorded.attempts);
  console.log(`recorded campaign (${RECORDED_CONTACTS} contacts, ${RECORDED_LANGUAGE}): ${audio.toFixed(0)} s of stereo audio in ${wall.toFixed(1)} s = ${(audio / wall).toFixed(1)} s of audio per second`);
}
