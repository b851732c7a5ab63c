/**
 * Workspace A's abuse for the noisy-neighbour rig (noisy-neighbour.ts), run in a worker thread of the test process
 * until `deadline`: transcripts built to be expensive to analyse, audio URLs that trickle, 20,000-contact campaigns
 * created and started as fast as the rate limit allows (those of `abuses`). Posts `{requests, serverErrors}` when done.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AbuseKind } from './noisy-neighbour.ts';
import { client } from './server.ts';

export interface AbuseSettings {
  baseUrl: string;
  key: string;
  scriptId: string;
  trickleUrl: string;
  deadline: number;
  abuses: readonly AbuseKind[];
}

const HOSTILE_TRANSCRIPT = Array.from({ length: 4_000 }, (_, index) => ({
  speaker: index % 2 ? 'customer' : 'agent',
  text: `The loan number ${index} is due.`,
  start_time: index * 2,
  end_time: index * 2 + 1.5,
}));

function contacts(count: number, offset: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, index) => ({ phone: `+9198${String(offset + index).padStart(8, '0')}`, name: `C${index}`, amount: 100, lender: 'Sahay' }));
}

const settings = (workerData as { settings: AbuseSettings }).settings;
const api = client({ baseUrl: settings.baseUrl }, settings.key);
const figures = { requests: 0, serverErrors: 0 };
let offset = 0;

async function send(method: 'post' | 'patch', path: string, body: unknown) {
  figures.requests++;
  try {
    const response = method === 'post' ? await api.post(path, body) : await api.patch(path, body);
    if (response.status >= 500) figures.serverErrors++;
    return response;
  } catch {
    figures.serverErrors++;
    return null;
  }
}

async function loop(everyMs: number, act: () => Promise<unknown>): Promise<void> {
  while (Date.now() < settings.deadline) {
    await act();
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

const abuses = new Set(settings.abuses);
await Promise.all([
  abuses.has('transcripts') && loop(500, () => send('post', '/v1/transcription', { transcript: HOSTILE_TRANSCRIPT, language: 'en-IN', features: ['transcription', 'summary', 'sentiment', 'intent'] })),
  abuses.has('audio') && loop(1_000, () => send('post', '/v1/transcription', { audio_url: `${settings.trickleUrl}/call-${offset++}.wav`, language: 'en-IN' })),
  abuses.has('campaigns') && loop(3_000, async () => {
    const campaign = await send('post', '/v1/campaigns', { name: 'A', script_id: settings.scriptId, language: 'en-IN', contacts: contacts(20_000, (offset++ % 1_000) * 20_000) });
    if (campaign?.status === 201 && abuses.has('starts')) await send('patch', `/v1/campaigns/${campaign.body.id}`, { action: 'start' });
  }),
]);
parentPort!.postMessage(figures);
