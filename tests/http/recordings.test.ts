import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callDecider, callStream, type CallCommand } from '../../domain/call.ts';
import { parseByteRange } from '../../http/byte-range.ts';
import { RECORDING_URL_VALIDITY_MS, recordingPath } from '../../infra/blobs/recording-links.ts';
import { publicBaseUrl } from '../../infra/config.ts';
import { encodeWav } from '../../infra/speech/wav.ts';
import { inProcessApp, type InProcessApp } from '../support/app.ts';
import { placeableFacts } from '../support/call-facts.ts';

/**
 * The public recordings route and the recording URL, in-process: the call's events and its blob are written
 * directly (as the dialer does), then the URL from GET /v1/calls/{id} is fetched. The dialing module's suite adds
 * the download of a real call's recording end to end.
 */
const recordings = suite('recordings: signed URLs and the public download route');
let harness: InProcessApp;
let key: string;
let workspaceId: string;
const wav = encodeWav({ sampleRate: 16_000, channels: [Int16Array.from({ length: 1600 }, (_, i) => i % 200), Int16Array.from({ length: 1600 }, (_, i) => -(i % 100))] });

async function recordedCall(callId: string, withRecording = true): Promise<void> {
  const now = new Date();
  const context = { workspaceId, actor: 'dialer', now };
  const commands: CallCommand[] = [
    {
      type: 'PlaceCall',
      facts: placeableFacts(),
      data: {
        call_id: callId,
        workspace_id: workspaceId,
        campaign_id: null,
        contact_index: null,
        attempt: null,
        contact: { phone: '+919876500003', name: 'Asha' },
        language: 'en-IN',
        script_id: 'scr_x',
        script_version: 1,
        variables: {},
        recording_enabled: withRecording,
        started_at: now.toISOString(),
      },
    },
    { type: 'RecordCallResult', data: { answered_at: now.toISOString(), turns: [], escalation: null, disposition: 'interested', duration_seconds: 0, ended_at: now.toISOString() } },
  ];
  if (withRecording) {
    await harness.runtime.blobs.put(`recordings/${callId}.wav`, wav);
    commands.push({ type: 'StoreCallRecording', data: { blob_key: `recordings/${callId}.wav`, duration_seconds: 0.1, content_type: 'audio/wav' } });
  }
  let position = 0;
  for (const command of commands) position = (await harness.runtime.commands.handle(callDecider, callStream(callId), command, context)).position;
  await harness.runtime.projections.waitForPosition(position);
}

async function recordingUrlOf(callId: string): Promise<string | null> {
  const response = await harness.app.request(`/v1/calls/${callId}`, { headers: { authorization: `Bearer ${key}` } });
  assert.is(response.status, 200);
  return ((await response.json()) as { recording_url: string | null }).recording_url;
}

/** The app is addressed by path; the URL's base is where clients would reach the server. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

recordings.before(async () => {
  harness = await inProcessApp();
  ({ key, workspaceId } = await harness.workspace('Read-Only'));
});
recordings.after(async () => harness.close());

recordings('GET /v1/calls/{id} signs a URL valid one hour; fetching it without any API key serves the WAV', async () => {
  await recordedCall('cal_rec1');
  const url = (await recordingUrlOf('cal_rec1'))!;
  const parsed = new URL(url);
  assert.is(`${parsed.origin}`, publicBaseUrl(harness.runtime.config));
  assert.is(parsed.pathname, '/v1/recordings/cal_rec1');
  const expires = Number(parsed.searchParams.get('expires'));
  const expected = (Date.now() + RECORDING_URL_VALIDITY_MS) / 1000;
  assert.ok(Math.abs(expires - expected) < 5, `expires ${expires} vs ${expected}`);
  assert.match(parsed.searchParams.get('signature')!, /^[0-9a-f]{64}$/);

  const response = await harness.app.request(pathOf(url));
  assert.is(response.status, 200, await response.clone().text());
  assert.is(response.headers.get('content-type'), 'audio/wav');
  assert.is(response.headers.get('accept-ranges'), 'bytes');
  assert.is(response.headers.get('content-length'), String(wav.length));
  assert.equal(Buffer.from(await response.arrayBuffer()), wav);
  const head = await harness.app.request(pathOf(url), { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), String(wav.length));
  assert.is((await head.arrayBuffer()).byteLength, 0);
});

recordings('Range: a single byte range is 206 with Content-Range; past the end is 416', async () => {
  await recordedCall('cal_rec2');
  const path = pathOf((await recordingUrlOf('cal_rec2'))!);
  const partial = await harness.app.request(path, { headers: { range: 'bytes=0-43' } });
  assert.is(partial.status, 206);
  assert.is(partial.headers.get('content-range'), `bytes 0-43/${wav.length}`);
  assert.is(partial.headers.get('content-length'), '44');
  assert.equal(Buffer.from(await partial.arrayBuffer()), wav.subarray(0, 44));
  const suffix = await harness.app.request(path, { headers: { range: 'bytes=-100' } });
  assert.is(suffix.status, 206);
  assert.equal(Buffer.from(await suffix.arrayBuffer()), wav.subarray(wav.length - 100));
  const open = await harness.app.request(path, { headers: { range: `bytes=${wav.length - 10}-` } });
  assert.equal(Buffer.from(await open.arrayBuffer()), wav.subarray(wav.length - 10));
  const beyond = await harness.app.request(path, { headers: { range: `bytes=${wav.length}-` } });
  assert.is(beyond.status, 416);
  assert.is(beyond.headers.get('content-range'), `bytes */${wav.length}`);
  assert.is(((await beyond.json()) as { error: { code: string } }).error.code, 'range_not_satisfiable');
});

recordings('tampered, missing or foreign signatures: 403 invalid_signature; an expired URL: 403 expired', async () => {
  await recordedCall('cal_rec3');
  await recordedCall('cal_rec4');
  const url = new URL((await recordingUrlOf('cal_rec3'))!);
  const forbidden = async (path: string, reason: string) => {
    const response = await harness.app.request(path);
    assert.is(response.status, 403, path);
    const body = (await response.json()) as { error: { code: string; details: unknown } };
    assert.is(body.error.code, 'forbidden');
    assert.equal(body.error.details, { reason });
  };
  const signature = url.searchParams.get('signature')!;
  const expires = url.searchParams.get('expires')!;
  const flipped = `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`;
  await forbidden(`/v1/recordings/cal_rec3?expires=${expires}&signature=${flipped}`, 'invalid_signature');
  await forbidden(`/v1/recordings/cal_rec3?expires=${Number(expires) + 3600}&signature=${signature}`, 'invalid_signature');
  await forbidden(`/v1/recordings/cal_rec4?expires=${expires}&signature=${signature}`, 'invalid_signature');
  await forbidden('/v1/recordings/cal_rec3', 'invalid_signature');
  await forbidden(`/v1/recordings/cal_rec3?expires=${expires}`, 'invalid_signature');
  await forbidden(`/v1/recordings/cal_rec3?expires=soon&signature=${signature}`, 'invalid_signature');

  const past = new Date(Date.now() - 1000);
  await forbidden(`${recordingPath('cal_rec3')}?${harness.runtime.urlSigner.sign(recordingPath('cal_rec3'), past)}`, 'expired');
  // The API key is no substitute for the signature.
  const withKey = await harness.app.request('/v1/recordings/cal_rec3', { headers: { authorization: `Bearer ${key}` } });
  assert.is(withKey.status, 403);
});

recordings('no recording: recording_url is null; a signed URL for a call without one is 404', async () => {
  await recordedCall('cal_rec5', false);
  assert.is(await recordingUrlOf('cal_rec5'), null);
  const path = recordingPath('cal_rec5');
  const response = await harness.app.request(`${path}?${harness.runtime.urlSigner.sign(path, new Date(Date.now() + 60_000))}`);
  assert.is(response.status, 404);
  assert.equal(((await response.json()) as { error: { details: unknown } }).error.details, { resource_type: 'recording', id: 'cal_rec5' });
  assert.is(harness.runtime.recordingLinks.urlFor('cal_rec5', null), null);
});

recordings('base URL: PUBLIC_BASE_URL when set, else the listening address with wildcards on loopback', () => {
  assert.is(publicBaseUrl({ PUBLIC_BASE_URL: 'https://calls.example.com/', HOST: '0.0.0.0', PORT: 8080 }), 'https://calls.example.com');
  assert.is(publicBaseUrl({ PUBLIC_BASE_URL: undefined, HOST: '0.0.0.0', PORT: 8080 }), 'http://127.0.0.1:8080');
  assert.is(publicBaseUrl({ PUBLIC_BASE_URL: undefined, HOST: '10.1.2.3', PORT: 9000 }), 'http://10.1.2.3:9000');
  assert.is(publicBaseUrl({ PUBLIC_BASE_URL: undefined, HOST: '::1', PORT: 9000 }), 'http://[::1]:9000');
});

recordings('byte ranges: parsing', () => {
  assert.is(parseByteRange(undefined, 100), null);
  assert.equal(parseByteRange('bytes=10-19', 100), { start: 10, end: 19 });
  assert.equal(parseByteRange('bytes=90-200', 100), { start: 90, end: 99 });
  assert.equal(parseByteRange('bytes=-30', 100), { start: 70, end: 99 });
  assert.equal(parseByteRange('bytes=-300', 100), { start: 0, end: 99 });
  assert.is(parseByteRange('bytes=100-', 100), 'unsatisfiable');
  assert.is(parseByteRange('bytes=-0', 100), 'unsatisfiable');
  assert.is(parseByteRange('bytes=0-1,5-6', 100), null, 'several ranges: the whole object');
  assert.is(parseByteRange('items=0-1', 100), null);
  assert.is(parseByteRange('bytes=20-10', 100), null);
});

recordings.run();
