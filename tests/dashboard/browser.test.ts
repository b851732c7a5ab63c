import type { BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { launchBrowser, type Browsing } from '../support/browser.ts';
import { makeCertificate, startReceiver, type Certificate, type Receiver } from '../support/https-receiver.ts';
import { loanRenewalScript } from '../support/scripts.ts';
import { client, createWorkspace, startServer, type ApiClient, type TestServer, type Workspace } from '../support/server.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * The dashboard in a real browser (chromium via playwright-core) against the real server: sandbox carrier, manual
 * clock, a real HTTPS webhook receiver. One server, one browser, one operator context reused across the steps,
 * which run in order like an operator's first session. Every page visited is checked with axe-core and
 * screenshotted at 1280×800 and 390×844 (test-output/dashboard/).
 */
const dashboard = suite('dashboard in a browser');

let server: TestServer;
let owner: Workspace;
let api: ApiClient;
let browsing: Browsing;
let operator: BrowserContext;
let page: Page;
let certificate: Certificate;
let receiver: Receiver;
let campaignId = '';
let callId = '';
const problems: string[] = [];

const XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';

/** Contacts by sandbox ending: 03 interested, 04 not interested, 05 callback, 00/01 not reachable (retried). */
const ENDINGS = ['00', '01', '02', '03', '04', '05', '06', '07', '08', '09'];
function csv(rows: string[][]): Buffer {
  const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  return Buffer.from(rows.map((row) => row.map(quote).join(',')).join('\n'));
}
const header = ['Mobile', 'Customer Name', 'amount', 'lender'];
const goodRows = ENDINGS.map((ending, index) => [`+9198100000${ending}`, index === 3 ? `Asha ${XSS}` : index === 4 ? 'सुनीता शर्मा' : `Customer ${index}`, String(50_000 + index), 'Sahay Finance']);

function watch(target: Page): void {
  target.on('dialog', (dialog) => {
    if (dialog.type() === 'confirm') return void dialog.accept();
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  target.on('console', (message) => {
    // The refused sign-in (a wrong key) answers 401 on purpose; anything else logged as an error is a defect.
    // The resource's address is kept with the message: "Failed to load resource" alone does not say which.
    if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(`console: ${message.text()} (${message.location().url || 'no address'})`);
  });
  target.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
}

async function assertNoXss(target: Page): Promise<void> {
  assert.is(await target.evaluate('window.__xss'), undefined, 'no injected script ran');
}

async function signIn(context: BrowserContext, key: string): Promise<Page> {
  const next = await context.newPage();
  watch(next);
  await next.goto(`${server.baseUrl}/`);
  assert.match(next.url(), /\/sign-in$/);
  await next.fill('#key', key);
  await next.click('button[type=submit]');
  await next.waitForURL(`${server.baseUrl}/`);
  return next;
}

/** Contacts done, as the progress on the open page shows it (SSE updates it; nothing reloads). */
const doneOnPage = async () => Number(await page.textContent('[data-testid=done]'));
/** When the live region last received an update (set by dashboard.js), or null once the page shows a finished campaign. */
const liveMarker = () => page.getAttribute('[data-live-progress]', 'data-updated', { timeout: 500 }).catch(() => 'finished');

async function advanceClock(seconds: number): Promise<void> {
  const response = await api.post('/v1/sandbox/clock', { advance_seconds: seconds });
  assert.is(response.status, 200, response.text);
}

dashboard.before(async () => {
  certificate = makeCertificate();
  receiver = await startReceiver(certificate, null, () => 500);
  server = await startServer({ env: { CLOCK: 'manual', CLOCK_START: '2026-03-02T04:30:00Z', ALLOW_PRIVATE_TARGETS: 'true', NODE_EXTRA_CA_CERTS: certificate.certPath } });
  owner = await createWorkspace(server, 'Sahay Finance');
  api = client(server, owner.key);
  const script = loanRenewalScript();
  script.steps[0]!.say = `Namaste {name}, this is Asha from {lender}. This call is recorded. ${XSS}`;
  const created = await api.post('/v1/scripts', script);
  assert.is(created.status, 201, created.text);
  browsing = await launchBrowser();
  operator = await browsing.newContext();
});

dashboard.after(async () => {
  await browsing?.close();
  await receiver?.close();
  certificate?.remove();
  await server?.stop();
});

dashboard('sign in with the Admin key: an HttpOnly SameSite=Strict session cookie, the overview with its empty state', async () => {
  const signInPage = await operator.newPage();
  watch(signInPage);
  await signInPage.goto(`${server.baseUrl}/sign-in`);
  await browsing.look(signInPage, '01-sign-in');
  await signInPage.fill('#key', 'vcs_wrong');
  await signInPage.click('button[type=submit]');
  const refusal = await signInPage.textContent('main') ?? '';
  assert.match(refusal, /not valid/, refusal);
  await signInPage.close();

  page = await signIn(operator, owner.key);
  const [cookie] = (await operator.cookies()).filter((entry) => entry.name === 'dashboard_session');
  assert.ok(cookie, 'session cookie');
  assert.is(cookie!.httpOnly, true);
  assert.is(cookie!.sameSite, 'Strict');
  assert.not.match(cookie!.value, owner.key.slice(0, 12), 'the cookie is not the key');
  assert.match(await page.textContent('main') ?? '', /No calls in the last 30 days/);
  assert.match(await page.textContent('main') ?? '', /Times are in /);
  await browsing.look(page, '02-overview-empty');
});

dashboard('register a webhook from the Webhooks page', async () => {
  await page.goto(`${server.baseUrl}/webhooks`);
  await browsing.look(page, '03-webhooks-empty');
  await page.fill('#url', `${receiver.url}/hooks`);
  await page.click('form.card button[type=submit]');
  await page.waitForURL(/\/webhooks\/wh_/);
  assert.match(await page.textContent('.flash') ?? '', /registered/);
});

dashboard('create a campaign from a CSV: column mapping, row errors before submitting, then created', async () => {
  await page.goto(`${server.baseUrl}/campaigns`);
  assert.match(await page.textContent('main') ?? '', /No campaigns yet/);
  await browsing.look(page, '04-campaigns-empty');
  await page.click('text=New campaign from a CSV');
  await page.fill('#name', 'March renewals');
  await page.selectOption('#language', 'hi-IN');
  const badRows = [...goodRows.slice(0, 2), ['12345', 'Bad Phone', '1', 'Sahay Finance'], ['+919810000000', 'Twice', '2', 'Sahay Finance'], ['+919810000077', 'No amount', '', 'Sahay Finance']];
  await page.setInputFiles('#contacts', { name: 'bad.csv', mimeType: 'text/csv', buffer: csv([header, ...badRows]) });
  await browsing.look(page, '05-campaign-new');
  await page.click('text=Next: map columns');
  // The phone column is guessed from "Mobile"; "Customer Name" is mapped by hand.
  assert.is(await page.inputValue('#map_phone'), '0');
  assert.is(await page.inputValue('#map_consent_given_at'), '', 'optional columns start as "Not in the file"');
  await page.selectOption('#map_name', { label: 'Customer Name' });
  await page.click('button[value=check]');
  const errors = await page.textContent('.errors') ?? '';
  assert.match(errors, /Line 4: phone: expected E\.164/);
  assert.match(errors, /Line 5: phone \+919810000000 is already on line 2/);
  assert.match(errors, /Line 6: amount: empty/);
  assert.is(await page.locator('button[value=create]').count(), 0, 'no create button while rows are wrong');
  await browsing.look(page, '06-campaign-row-errors');

  await page.goto(`${server.baseUrl}/campaigns/new`);
  await page.fill('#name', 'March renewals');
  await page.setInputFiles('#contacts', { name: 'contacts.csv', mimeType: 'text/csv', buffer: csv([header, ...goodRows]) });
  await page.selectOption('#purpose', 'recovery');
  await page.click('summary');
  await page.fill('#max_attempts', '2');
  await page.fill('#retry_interval_minutes', '5');
  await page.click('text=Next: map columns');
  await page.selectOption('#map_name', { label: 'Customer Name' });
  await page.click('button[value=check]');
  await browsing.look(page, '07-campaign-mapped');
  await page.click('button[value=create]');
  await page.waitForURL(/\/campaigns\/cmp_/);
  campaignId = page.url().split('/').at(-1)!;
  assert.match(await page.textContent('.flash') ?? '', /created with 10 contacts/);
  assert.match(await page.textContent('[data-testid=purpose]') ?? '', /Recovery/);
  // The script by its name (the page showed its id alone).
  const scriptShown = (await page.textContent('[data-testid=script] a')) ?? '';
  assert.not.match(scriptShown, /^scr_/, scriptShown);
  assert.is((await api.get(`/v1/campaigns/${campaignId}`)).body.purpose, 'recovery', 'the purpose reached the API');
  await assertNoXss(page);
});

dashboard('start, live progress over SSE, pause, resume; the clock moves and the page follows without a reload', async () => {
  await page.click('button:has-text("Start now")');
  await page.waitForSelector('text=Campaign running.');
  // First round: every contact dialed; 00, 01 and 08 wait for a retry (5 + ... final).
  await waitFor('the first round on the page', doneOnPage, (done) => done >= 7);
  const firstRound = Number(await page.textContent('[data-testid=done]'));
  await browsing.look(page, '08-campaign-running');
  await page.click('button:has-text("Pause")');
  await page.waitForSelector('text=Campaign paused.');
  assert.ok(await page.locator('button:has-text("Resume")').count());
  await page.click('button:has-text("Resume")');
  await page.waitForSelector('text=Campaign running.');
  // Paused elsewhere (the API) while the page is open: the page follows with the buttons of the new status (it kept
  // offering Pause, refused when clicked).
  assert.is((await api.patch(`/v1/campaigns/${campaignId}`, { action: 'pause' })).status, 200);
  await page.waitForSelector('main .actions a:has-text("Reload for its actions")', { timeout: 15_000 });
  assert.is(await page.locator('main .actions button').count(), 0, 'the buttons of the old status are gone');
  await page.click('main .actions a:has-text("Reload for its actions")');
  await page.waitForSelector('main .actions button:has-text("Resume")');
  await page.click('button:has-text("Resume")');
  await page.waitForSelector('text=Campaign running.');
  const marker = await liveMarker();
  // Past the retry interval the retries run: the progress on the open page moves by itself.
  await advanceClock(6 * 60);
  await waitFor('the retries on the open page', async () => ({ done: await doneOnPage(), updated: await liveMarker() }), (now) => now.done === 10 && now.updated !== marker);
  assert.ok(firstRound < 10, `first round ${firstRound}`);
  await page.waitForSelector('#progress >> text=completed', { timeout: 30_000 });
  await page.reload();
  await browsing.look(page, '09-campaign-completed');
  const name = await page.locator('a', { hasText: 'Asha' }).first().textContent();
  assert.is(name, `Asha ${XSS}`, 'the contact name shows as text');
  await assertNoXss(page);
});

dashboard('a call: recording in an audio player beside its transcript; a segment seeks, the playing one is highlighted', async () => {
  await page.click('table a:has-text("Asha")');
  await page.waitForURL(/\/calls\/cal_/);
  callId = page.url().split('/').at(-1)!.split('?')[0]!;
  // The campaign by its name (the page showed its id alone).
  const campaignShown = (await page.textContent('[data-testid=campaign] a')) ?? '';
  assert.not.match(campaignShown, /^cmp_/, campaignShown);
  // The conversation is analysed after the call: reload until the transcript is there.
  await waitFor('the transcript on the call page', async () => {
    if (await page.locator('#transcript li').count()) return true;
    await page.reload();
    return false;
  }, (shown) => shown);
  const segments = page.locator('#transcript li');
  assert.ok((await segments.count()) >= 2);
  const transcriptText = await page.textContent('#transcript') ?? '';
  assert.ok(transcriptText.includes('<script>'), 'transcript text with markup shows as text');
  await assertNoXss(page);
  assert.match(await page.textContent('main') ?? '', /Sentiment/);
  const audio = page.locator('audio[data-transcript]');
  assert.is(await audio.count(), 1);
  assert.is(await audio.getAttribute('src'), `/calls/${callId}/recording`);
  // Play it: the browser fetches the WAV from this origin and time moves.
  await page.evaluate('(() => { const a = document.querySelector("audio"); a.muted = true; return a.play(); })()');
  await waitFor('the recording playing', () => page.evaluate('document.querySelector("audio").currentTime') as Promise<number>, (time) => time > 0.2, 30_000);
  await page.evaluate('document.querySelector("audio").pause()');
  const second = segments.nth(1);
  const start = Number(await second.getAttribute('data-start'));
  await second.locator('button').click();
  await waitFor('the seek to the segment', () => page.evaluate('document.querySelector("audio").currentTime') as Promise<number>, (time) => time >= start && time < start + 2);
  await waitFor('the segment highlighted', () => second.getAttribute('class'), (value) => value === 'playing');
  await page.evaluate('document.querySelector("audio").pause()');
  await browsing.look(page, '10-call-detail');
});

dashboard('a call\'s compliance result: score, violations with evidence that seeks the audio; the overview counts the critical ones', async () => {
  // A recovery call that threatens arrest: in-rbi-recovery finds a critical no_false_claims with its evidence.
  const settings = await api.put('/v1/compliance/settings', { packs: [{ id: 'in-rbi-recovery' }, { id: 'general' }] });
  assert.is(settings.status, 200, settings.text);
  const threat = await api.post('/v1/scripts', {
    name: 'Recovery (bad)',
    single_call_enabled: true,
    steps: [
      { id: 'greet', say: 'Hello {name}, this is Ravi from Sahay Finance. This call is recorded.', next: 'threat' },
      { id: 'threat', say: `Your EMI of {amount} rupees is overdue. Police will arrest you today if you do not pay. ${XSS}`, end: true },
    ],
  });
  assert.is(threat.status, 201, threat.text);
  const placed = await api.post('/v1/calls', { phone: '+919876500003', name: 'Meera', language: 'en-IN', recording_enabled: true, script_id: threat.body.id, metadata: { amount: 5000 }, purpose: 'recovery' });
  assert.is(placed.status, 201, placed.text);
  await waitFor('the compliance result', async () => {
    await advanceClock(0.001);
    return (await api.get(`/v1/analytics/compliance?call_id=${placed.body.id}`)).body;
  }, (body) => body.status === undefined);
  await page.goto(`${server.baseUrl}/calls/${placed.body.id}`);
  const section = page.locator('[data-testid=compliance]');
  assert.match(await section.textContent() ?? '', /no false claims/);
  assert.match(await page.textContent('[data-testid=compliance-score]') ?? '', /^\d+ \/ 100$/);
  assert.match(await section.textContent() ?? '', /judged by compliance-classifier\/1@[0-9a-f]{12}/, 'the model that judged');
  assert.ok((await section.locator('.badge-critical').count()) >= 1, 'a critical violation');
  assert.ok((await section.textContent())!.includes('<script>'), 'evidence text shows as text');
  await assertNoXss(page);
  const evidence = section.locator('button[data-seek]').first();
  const at = Number(await evidence.getAttribute('data-seek'));
  await evidence.click();
  await waitFor('the seek to the evidence', () => page.evaluate('document.querySelector("audio").currentTime') as Promise<number>, (time) => time >= at && time < at + 2);
  await page.evaluate('document.querySelector("audio").pause()');
  await browsing.look(page, '28-call-compliance');
  await page.goto(`${server.baseUrl}/`);
  assert.ok(Number(await page.textContent('[data-testid=critical-violations] .value')) >= 1, 'the overview counts critical violations');
});

dashboard('live calls: a call placed elsewhere appears on the open page without a reload; another workspace\'s never does', async () => {
  const other = await createWorkspace(server, 'Other lender');
  const otherApi = client(server, other.key);
  const otherScript = await otherApi.post('/v1/scripts', loanRenewalScript());
  assert.is(otherScript.status, 201, otherScript.text);
  const theirs = await otherApi.post('/v1/calls', { phone: '+919810000303', name: 'Other tenant', language: 'en-IN', script_id: otherScript.body.id, metadata: { amount: 1, lender: 'Elsewhere' } });
  assert.is(theirs.status, 201, theirs.text);
  const live = await operator.newPage();
  watch(live);
  await live.goto(`${server.baseUrl}/live`);
  assert.match(await live.textContent('main') ?? '', /Latest calls placed/);
  const marker = await live.getAttribute('[data-live-progress]', 'data-updated');
  const scriptId = (await api.get('/v1/scripts')).body.data.find((script: { name: string }) => script.name === 'Loan renewal').id;
  const ours = await api.post('/v1/calls', { phone: '+919810000203', name: `Live ${XSS}`, language: 'en-IN', script_id: scriptId, metadata: { amount: 7, lender: 'Sahay Finance' } });
  assert.is(ours.status, 201, ours.text);
  await waitFor('the call on the open live page', async () => ({ text: await live.textContent('#live-activity') ?? '', updated: await live.getAttribute('[data-live-progress]', 'data-updated') }), (now) => now.text.includes(`Live ${XSS}`) && now.updated !== marker);
  await assertNoXss(live);
  assert.not.match(await live.textContent('#live-activity') ?? '', /Other tenant/);
  await waitFor('no call in progress', async () => Number(await live.textContent('[data-testid=in-progress] .value')), (count) => count === 0, 30_000);
  assert.not.match(await live.textContent('#live-activity') ?? '', /Other tenant/);
  await browsing.look(live, '34-live-calls');
  await live.close();
});

dashboard('compliance: tables by rule and severity over a period in the operator\'s zone; a re-audit refused at its field, then run to its result', async () => {
  await page.goto(`${server.baseUrl}/compliance`);
  assert.match(await page.textContent('[data-testid=by-check]') ?? '', /no false claims/);
  assert.ok(Number(await page.textContent('[data-testid=by-severity-critical] .value')) >= 1, 'critical violations counted');
  assert.match(await page.textContent('main h2') ?? '', /Asia\/Kolkata/);
  await browsing.look(page, '35-compliance');
  await page.fill('#c-from', '2026-02-01');
  await page.fill('#c-to', '2026-02-02');
  await page.click('button:has-text("Show")');
  await page.waitForURL(/from=2026-02-01/);
  assert.match(await page.textContent('main') ?? '', /No call was evaluated in this period/);
  await page.click('a:has-text("Start a re-audit")');
  await page.fill('#a-from', '2026-03-04');
  await page.fill('#a-to', '2026-03-02');
  await page.click('button:has-text("Start re-audit")');
  assert.match(await page.textContent('#a-to-error') ?? '', /./, 'a range ending before it starts is refused at the end date');
  assert.is(await page.inputValue('#a-from'), '2026-03-04', 'the refused form comes back filled in');
  await browsing.look(page, '36-audit-form-error');
  await page.fill('#a-from', '2026-02-24');
  await page.check('input[name=pack][value="in-dpdp"]');
  await page.click('button:has-text("Start re-audit")');
  await page.waitForURL(/\/compliance\/audits\/aud_/);
  assert.match(await page.textContent('.flash') ?? '', /Re-audit started over \d+ call/);
  // The page follows the audit over SSE and reloads once when it completes.
  await page.waitForSelector('#audit-progress >> text=completed', { timeout: 60_000 });
  const audit = (await api.get(`/v1/compliance/audits/${page.url().split('/').at(-1)}`)).body;
  assert.is(audit.status, 'completed');
  assert.ok(audit.progress.total >= 1, 'calls re-audited');
  assert.is(Number(await page.textContent('[data-testid=audit-processed]')), audit.progress.total);
  assert.is(Number(await page.textContent('[data-testid=newly-failing] .value')), audit.calls_newly_failing);
  assert.match(await page.textContent('[data-testid=audit-classifier]') ?? '', new RegExp(`Judged with ${audit.classifiers[0]}`));
  assert.match(await page.textContent('main') ?? '', /in-dpdp/);
  await browsing.look(page, '37-audit');
  await page.goto(`${server.baseUrl}/compliance`);
  assert.is(await page.locator('[data-testid=audits] tbody tr').count(), 1);
});

dashboard('the calls list filters by disposition; search highlights the words and links to the call at that second', async () => {
  await page.goto(`${server.baseUrl}/calls`);
  await browsing.look(page, '11-calls');
  await page.selectOption('#f-disposition', 'interested');
  await page.click('button:has-text("Filter")');
  await page.waitForURL(/disposition=interested/);
  const rows = await page.locator('tbody tr').count();
  assert.ok(rows >= 1);
  assert.is(await page.locator('tbody tr:has-text("not reachable")').count(), 0);

  await page.goto(`${server.baseUrl}/search`);
  await page.fill('#q', 'renew');
  await page.click('button:has-text("Search")');
  await page.waitForSelector('mark');
  assert.match((await page.textContent('mark')) ?? '', /renew/i);
  // Each hit names the contact called (they all read "Call at 0:05" before).
  assert.match((await page.textContent('main ol a >> nth=0')) ?? '', /^Call with .+ at \d+:\d\d$/);
  await browsing.look(page, '12-search');
  await page.click('main ol a >> nth=0');
  await page.waitForURL(/\/calls\/cal_.*\?t=\d+/);
  assert.is(await page.locator('audio[data-start-at]').count(), 1);
});

dashboard('webhooks: the delivery log shows failed deliveries; Replay sends one again', async () => {
  // Off the call page first: its audio element may fetch more of the recording while the clock below moves eight
  // hours at a time, past the signed link's expiry, and that fetch is then refused (403, rightly; seen in CI).
  await page.goto(`${server.baseUrl}/webhooks`);
  const hooks = await api.get('/v1/webhooks');
  const webhookId: string = hooks.body.data[0].id;
  const log = async () => (await api.get(`/v1/webhooks/${webhookId}/deliveries?limit=100`)).body.data as { id: string; status: string; attempts: unknown[] }[];
  // Every automatic retry fails (the receiver answers 500): one delivery is followed until it is abandoned.
  const [oldest] = (await log()).slice(-1);
  assert.ok(oldest, 'a delivery');
  for (let step = 0; step < 6; step++) {
    const seen = (await log()).find((delivery) => delivery.id === oldest!.id)!;
    if (seen.status === 'failed') break;
    await advanceClock(8 * 3_600 + 1);
    await waitFor(`attempt ${seen.attempts.length + 1}`, log, (now) => {
      const delivery = now.find((entry) => entry.id === oldest!.id)!;
      return delivery.attempts.length > seen.attempts.length || delivery.status === 'failed';
    });
  }
  await waitFor('a failed delivery', log, (now) => now.some((delivery) => delivery.status === 'failed'));
  receiver.respond = () => 200;
  await page.goto(`${server.baseUrl}/webhooks`);
  await browsing.look(page, '13-webhooks');
  await page.click(`a[href="/webhooks/${webhookId}"]`);
  await page.selectOption('#d-status', 'failed');
  await page.click('button:has-text("Filter")');
  await page.waitForURL(/status=failed/);
  await browsing.look(page, '14-webhook-delivery-log');
  const before = receiver.requests.length;
  // Which delivery the first Replay button replays: its form names it.
  const action = (await page.locator('form[action*="/replay"] >> nth=0').getAttribute('action'))!;
  const replayedId = /\/deliveries\/([^/]+)\/replay$/.exec(action)![1]!;
  await page.click('button:has-text("Replay") >> nth=0');
  await page.waitForSelector('text=Replay requested');
  await waitFor('the replayed delivery', async () => receiver.requests.length, (count) => count > before);
  // Other deliveries still retrying may succeed now too; the one replayed was abandoned, and only a replay sends it.
  await waitFor('the replay in the log', log, (now) => now.find((delivery) => delivery.id === replayedId)?.status === 'delivered');
  await page.goto(`${server.baseUrl}/webhooks/${webhookId}?status=delivered`);
  assert.ok((await page.locator('tbody tr:has-text("HTTP 200")').count()) >= 1, 'the log shows the delivered replay');
});

dashboard('settings: create a Read-Only key (secret shown once); its session sees no actions and the server refuses them; revoking it ends that session; the last Admin key cannot be revoked', async () => {
  await page.goto(`${server.baseUrl}/settings`);
  await page.fill('#key-name', `Auditor ${XSS}`);
  await page.selectOption('#key-scope', 'Read-Only');
  await page.click('button:has-text("Create key")');
  const secret = (await page.textContent('#new-key'))!.trim();
  assert.match(secret, /^vcs_/);
  assert.is(await page.locator('button[data-copy=new-key]').count(), 1);
  assert.not.match(page.url(), secret);
  await assertNoXss(page);
  await browsing.look(page, '15-settings-key-created');
  // A reload sends the form again: the form's id replays the first request, so no second key (and no secret).
  await page.reload();
  assert.is(await page.locator('#new-key').count(), 0, 'no secret on a reload');
  assert.match(await page.textContent('#key-replayed') ?? '', /already sent/);
  const auditorKeys = (await api.get('/v1/api-keys?limit=100')).body.data.filter((key: { name: string }) => key.name === `Auditor ${XSS}`);
  assert.is(auditorKeys.length, 1, 'one key for one form');
  await page.goto(`${server.baseUrl}/settings`);
  assert.is(await page.locator('#new-key').count(), 0, 'the secret is shown once');

  // The Read-Only operator: every page, no action button; a forged action is refused by the server.
  const auditorContext = await browsing.newContext();
  const auditor = await signIn(auditorContext, secret);
  const anyScript = (await api.get('/v1/scripts')).body.data[0].id as string;
  const formPages = ['/campaigns/new', '/scripts/new', `/scripts/${anyScript}/edit`, '/scorecards/new'];
  for (const path of ['/campaigns', `/campaigns/${campaignId}`, '/webhooks', '/scripts', '/agents', '/do-not-call', '/reports', '/reports/new', '/settings', '/compliance', '/compliance/audits/new', ...formPages]) {
    await auditor.goto(`${server.baseUrl}${path}`);
    assert.is(await auditor.locator('main form[method=post]').count(), 0, `no action on ${path}`);
  }
  // The forms themselves are not offered (the three CSV steps of a campaign were, until the server refused the last).
  for (const path of formPages) {
    await auditor.goto(`${server.baseUrl}${path}`);
    assert.match(await auditor.textContent('main .flash') ?? '', /needs a Read-Write or Admin key/, path);
  }
  await auditor.goto(`${server.baseUrl}/campaigns/new`);
  await browsing.look(auditor, '16b-read-only-new-campaign');
  await browsing.look(auditor, '16-read-only-campaign');
  const csrf = await auditor.getAttribute('input[name=_csrf]', 'value');
  const forged = await auditor.evaluate(
    `fetch('/do-not-call', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'phone=%2B919999999999&_csrf=${csrf}', redirect: 'manual' }).then((r) => r.status)`,
  );
  assert.is(forged, 0, 'answered with a redirect (opaque), not performed');
  const listed = await api.get('/v1/suppressions/%2B919999999999');
  assert.is(listed.status, 404, 'a Read-Only session cannot add to the do-not-call list');
  await auditor.goto(`${server.baseUrl}/do-not-call`);
  assert.match(await auditor.textContent('.flash') ?? '', /Read-Write/);
  // Compliance packs: shown, not editable; a forged change is refused by the API.
  await auditor.goto(`${server.baseUrl}/settings`);
  assert.match(await auditor.textContent('[data-testid=compliance-packs]') ?? '', /in-rbi-recovery/);
  assert.match(await auditor.textContent('[data-testid=compliance-packs]') ?? '', /Only an Admin key can change the packs/);
  const forgedPacks = await auditor.evaluate(
    `fetch('/settings/compliance', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'pack=in-trai&_csrf=${csrf}' }).then((r) => r.text())`,
  ) as string;
  assert.match(forgedPacks, /Admin/);
  assert.equal((await api.get('/v1/compliance/settings')).body.packs.map((pack: { id: string }) => pack.id), ['in-rbi-recovery', 'general'], 'unchanged');

  // Re-audits: listed for the Read-Only key, not startable; a forged request is refused by the API.
  await auditor.goto(`${server.baseUrl}/compliance`);
  assert.is(await auditor.locator('a:has-text("Start a re-audit")').count(), 0);
  assert.is(await auditor.locator('[data-testid=audits] tbody tr').count(), 1);
  const forgedAudit = await auditor.evaluate(
    `fetch('/compliance/audits/new', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'from=2026-03-01&to=2026-03-02&basis=settings&pack=general&_csrf=${csrf}' }).then(async (r) => [r.status, await r.text()])`,
  ) as [number, string];
  assert.is(forgedAudit[0], 200, 'the form page, with the refusal');
  assert.match(forgedAudit[1], /Admin/);
  assert.is((await api.get('/v1/compliance/audits')).body.total, 1, 'no audit started');

  // The Admin revokes it; the auditor's next page is the sign-in page, saying why.
  await page.goto(`${server.baseUrl}/settings`);
  await page.click('tr:has-text("Auditor") button:has-text("Revoke")');
  await page.waitForSelector('text=revoked: every request');
  await auditor.goto(`${server.baseUrl}/calls`);
  assert.match(auditor.url(), /\/sign-in\?ended=revoked$/);
  assert.match(await auditor.textContent('main') ?? '', /its API key was revoked/);
  await auditorContext.close();

  // The last Admin key stays.
  await page.click('tr:has-text("Initial admin key") button:has-text("Revoke")');
  assert.match(await page.textContent('.flash') ?? '', /last active Admin key/);
  await browsing.look(page, '17-settings');
});

dashboard('every other page renders, is accessible and escapes what users typed', async () => {
  for (const [path, name] of [['/', '18-overview'], ['/campaigns', '19-campaigns'], ['/scripts', '20-scripts'], ['/scorecards', '21-scorecards'], ['/agents', '22-agents'], ['/do-not-call', '23-do-not-call']] as const) {
    await page.goto(`${server.baseUrl}${path}`);
    await browsing.look(page, name);
  }
  await page.goto(`${server.baseUrl}/agents`);
  await page.fill('#a-name', 'Priya');
  await page.check('input[value="ta-IN"]');
  await page.fill('#a-phone', '+919812345678');
  await page.click('button:has-text("Add agent")');
  assert.match(await page.textContent('.flash') ?? '', /Agent Priya added/);
  await page.click('main table a:has-text("Priya")');
  assert.match(await page.textContent('main') ?? '', /Calls handled, last 30 days/);
  await browsing.look(page, '27-agent');
  // With an agent in the workspace, the calls list filters by agent (GET /v1/calls?agent_id); Priya has no calls yet.
  await page.goto(`${server.baseUrl}/calls`);
  await page.selectOption('#f-agent', { label: 'Priya' });
  await page.click('button:has-text("Filter")');
  await page.waitForURL(/agent_id=agt_/);
  assert.match(await page.textContent('main') ?? '', /No call matches these filters/);
  // A page past the end says so and links back (it read "100001–N of N"); a date that is no day is refused, not ignored.
  await page.goto(`${server.baseUrl}/calls?offset=100000`);
  assert.match(await page.textContent('nav.pager') ?? '', /Nothing here/);
  assert.is(await page.locator('nav.pager a:has-text("Last page")').count(), 1);
  await page.goto(`${server.baseUrl}/calls?from=garbage`);
  assert.match(await page.textContent('main') ?? '', /from/);
  assert.is(await page.locator('main table tbody tr').count(), 0, 'no call listed as if the date had not been given');
  await page.goto(`${server.baseUrl}/do-not-call`);
  // A refused form comes back filled in (it came back empty): the operator corrects the number, not the whole form.
  await page.fill('#dnc-phone', '98765');
  await page.fill('#dnc-reason', 'ग्राहक ने मना किया');
  await page.click('button:has-text("Add to the list")');
  assert.match(await page.textContent('.flash') ?? '', /E\.164/);
  assert.equal([await page.inputValue('#dnc-phone'), await page.inputValue('#dnc-reason')], ['98765', 'ग्राहक ने मना किया']);
  await page.goto(`${server.baseUrl}/agents`);
  await page.fill('#a-name', 'மீனா');
  await page.fill('#a-phone', '+919810000777');
  await page.click('button:has-text("Add agent")');
  assert.match(await page.textContent('.flash') ?? '', /languages/);
  assert.equal([await page.inputValue('#a-name'), await page.inputValue('#a-phone')], ['மீனா', '+919810000777']);
  await page.goto(`${server.baseUrl}/do-not-call`);
  assert.is(await page.inputValue('#dnc-phone'), '', 'the values were for the page after the refusal only');
  await page.fill('#dnc-phone', '+919810000555');
  await page.click('button:has-text("Add to the list")');
  assert.match(await page.textContent('.flash') ?? '', /will not be called/);
  await page.goto(`${server.baseUrl}/scripts`);
  await page.click('main table a:has-text("Loan renewal")');
  assert.ok((await page.textContent('main pre'))!.includes('<script>'), 'script text shows as text');
  await assertNoXss(page);
  await browsing.look(page, '24-script');
  await page.click('main a[href$="/edit"]');
  assert.ok((await page.inputValue('#f-steps-0-say')).includes('<script>'), 'the step editor shows script text as text');
  await assertNoXss(page);
  await browsing.look(page, '39-script-edit');

  // The step editor: add a step (htmx swaps the form in place), an invalid key refused at its input, move, remove, create.
  await page.goto(`${server.baseUrl}/scripts/new`);
  await page.fill('#s-name', 'Step by step');
  await page.click('button:has-text("Add step")');
  await page.waitForSelector('#f-steps-3-id');
  await page.fill('#f-steps-3-id', 'later');
  await page.fill('#f-steps-3-say', `Call you later ${XSS}`);
  await page.fill('#f-steps-0-listen-routes-0-dtmf', 'x');
  await page.click('button:has-text("Create script")');
  assert.match(await page.textContent('#f-steps-0-listen-routes-0-dtmf-error') ?? '', /keypad/);
  assert.is(await page.inputValue('#f-steps-3-id'), 'later', 'the refused form keeps the added step');
  await assertNoXss(page);
  await browsing.look(page, '38-script-editor-error');
  await page.fill('#f-steps-0-listen-routes-0-dtmf', '1');
  await page.click('button[value="up:3"]');
  await waitFor('the step moved up', () => page.inputValue('#f-steps-2-id'), (id) => id === 'later');
  await page.click('button[value="remove-step:2"]');
  await waitFor('the step removed', () => page.locator('#f-steps-3-id').count(), (count) => count === 0);
  assert.is(await page.inputValue('#f-steps-2-id'), 'bye');
  await page.click('button:has-text("Create script")');
  await page.waitForURL(/\/scripts\/scr_/);
  const created = (await api.get(`/v1/scripts/${page.url().split('/').at(-1)}`)).body;
  assert.equal(created.steps.map((step: { id: string }) => step.id), ['greet', 'thanks', 'bye']);
  assert.is(created.steps[0].listen.routes[0].dtmf, '1');

  // The scorecard editor: points refused at their field, a parameter added with its phrases.
  await page.goto(`${server.baseUrl}/scorecards/new`);
  await page.fill('#q-name', `QA ${XSS}`);
  await page.fill('#f-parameters-0-max_score', '0');
  await page.click('button:has-text("Create scorecard")');
  assert.match(await page.textContent('#f-parameters-0-max_score-error') ?? '', /greater than 0/);
  await page.fill('#f-parameters-0-max_score', '10');
  await page.click('button:has-text("Add parameter")');
  await page.waitForSelector('#f-parameters-2-name');
  await page.fill('#f-parameters-2-name', 'closing');
  await page.selectOption('#f-parameters-2-check-type', 'agent_says');
  await page.fill('#f-parameters-2-check-phrases-en', 'thank you, goodbye');
  await browsing.look(page, '40-scorecard-editor');
  await page.click('button:has-text("Create scorecard")');
  await page.waitForURL(/\/scorecards\/qsc_/);
  await assertNoXss(page);
  const card = (await api.get(`/v1/qa/scorecards/${page.url().split('/').at(-1)}`)).body;
  assert.equal(card.parameters.map((parameter: { name: string }) => parameter.name), ['greeting', 'no_threats', 'closing']);
  assert.equal(card.parameters[2].check, { type: 'agent_says', phrases: { en: ['thank you', 'goodbye'] } });

  // The JSON view, for power users: its errors are placed at their step too.
  await page.goto(`${server.baseUrl}/scripts/new?view=json`);
  await page.fill('#s-name', 'Broken');
  await page.fill('#s-steps', '[{"id":"a","say":"Hi","next":"nowhere"}]');
  await page.click('button:has-text("Create script")');
  assert.match(await page.textContent('[role=alert]') ?? '', /Step 1 \(a\)/);
  await browsing.look(page, '25-script-error');
});

dashboard('reports: the API\'s validation errors at their field; a PDF generated and downloaded; a scheduled report with its runs; the list filters', async () => {
  await page.goto(`${server.baseUrl}/reports`);
  assert.match(await page.textContent('main') ?? '', /No reports yet/);
  await page.click('a:has-text("New report")');
  await page.fill('#rf-from', '2026-02-24');
  await page.fill('#rf-to', '2026-03-02');
  await page.fill('#rf-cron', '*/5 * * * *');
  await page.click('button:has-text("Create report")');
  assert.match(await page.textContent('#rf-cron-error') ?? '', /./, 'a schedule running more than once a day is refused at the cron field');
  assert.is(await page.inputValue('#rf-from'), '2026-02-24', 'the refused form comes back filled in');
  await page.fill('#rf-cron', '');
  await page.fill('#rf-email_to', `ops@example.com`);
  await page.click('button:has-text("Create report")');
  assert.match(await page.textContent('#rf-email_to-error') ?? '', /SMTP_URL/);
  await browsing.look(page, '29-report-form-error');
  await page.fill('#rf-email_to', '');
  await page.selectOption('#rf-format', 'pdf');
  await page.click('button:has-text("Create report")');
  await page.waitForURL(/\/reports\/rpt_/);
  await waitFor('the report generated', async () => {
    const status = await page.textContent('[data-testid=report-status]');
    if (/completed|failed/.test(status ?? '')) return status;
    await page.reload();
    return status;
  }, (status) => /completed|failed/.test(status ?? ''), 60_000);
  assert.match(await page.textContent('[data-testid=report-status]') ?? '', /completed/);
  const href = (await page.getAttribute('[data-testid=download]', 'href'))!;
  assert.match(href, /^\/v1\/report-files\/rrn_[^?]+\?expires=/);
  const file = await page.evaluate(`fetch(${JSON.stringify(href)}).then(async (r) => [r.status, r.headers.get('content-type'), (await r.text()).slice(0, 5)])`);
  assert.equal(file, [200, 'application/pdf', '%PDF-']);
  await browsing.look(page, '30-report');

  await page.goto(`${server.baseUrl}/reports/new`);
  await page.selectOption('#rf-type', 'qa_performance');
  await page.selectOption('#rf-format', 'csv');
  await page.fill('#rf-cron', '0 8 * * 1');
  await page.fill('#rf-schedule_timezone', 'Asia/Kolkata');
  await page.click('button:has-text("Create report")');
  await page.waitForURL(/\/reports\/rpt_/);
  assert.match(await page.textContent('main') ?? '', /0 8 \* \* 1/);
  assert.match(await page.textContent('main') ?? '', /next run/);
  await waitFor('the first run listed', async () => {
    const rows = await page.locator('#runs-h ~ .table-wrap tbody tr').count();
    if (!rows) await page.reload();
    return rows;
  }, (rows) => rows >= 1);
  await page.click('button:has-text("Cancel schedule")');
  await page.waitForSelector('text=Schedule cancelled');
  assert.is(await page.locator('button:has-text("Cancel schedule")').count(), 0);
  // A JSON report's figures are on its page.
  await page.goto(`${server.baseUrl}/reports/new`);
  await page.fill('#rf-from', '2026-02-24');
  await page.fill('#rf-to', '2026-03-02');
  await page.selectOption('#rf-format', 'json');
  await page.click('button:has-text("Create report")');
  await page.waitForURL(/\/reports\/rpt_/);
  await waitFor('the JSON report generated', async () => {
    const status = await page.textContent('[data-testid=report-status]');
    if (!/completed|failed/.test(status ?? '')) await page.reload();
    return status;
  }, (status) => /completed|failed/.test(status ?? ''), 60_000);
  assert.match(await page.textContent('[data-testid=report-data]') ?? '', /"total_calls": \d+/);
  await browsing.look(page, '30b-report-json');

  await page.goto(`${server.baseUrl}/reports`);
  assert.is(await page.locator('main tbody tr').count(), 3);
  await page.selectOption('#r-scheduled', 'true');
  await page.click('button:has-text("Filter")');
  await page.waitForURL(/scheduled=true/);
  assert.is(await page.locator('main tbody tr').count(), 1);
  assert.match(await page.textContent('main tbody') ?? '', /QA performance|qa/i);
  await browsing.look(page, '31-reports');
});

dashboard('settings: an Admin edits the compliance packs; a value out of range is refused at its field', async () => {
  await page.goto(`${server.baseUrl}/settings`);
  assert.ok(await page.isChecked('input[name=pack][value="in-rbi-recovery"]'));
  assert.is(await page.inputValue('#cp-in-rbi-recovery-max_attempts_per_day'), '3');
  await page.fill('#cp-in-rbi-recovery-max_attempts_per_day', '0');
  await page.check('input[name=pack][value="in-dpdp"]');
  await page.click('button:has-text("Save compliance packs")');
  assert.match(await page.textContent('#cp-in-rbi-recovery-max_attempts_per_day-error') ?? '', /./);
  assert.ok(await page.isChecked('input[name=pack][value="in-dpdp"]'), 'the refused form keeps what was ticked');
  await browsing.look(page, '32-settings-packs-error');
  await page.fill('#cp-in-rbi-recovery-max_attempts_per_day', '2');
  await page.fill('#cp-in-dpdp-sector', 'insurer');
  await page.click('button:has-text("Save compliance packs")');
  await page.waitForSelector('text=Compliance packs saved');
  const saved = (await api.get('/v1/compliance/settings')).body;
  assert.equal(saved.packs.map((pack: { id: string }) => pack.id), ['in-rbi-recovery', 'in-dpdp', 'general']);
  assert.is(saved.packs[0].parameters.max_attempts_per_day, 2);
  assert.is(saved.packs[1].parameters.sector, 'insurer');
  assert.is(await page.inputValue('#cp-in-rbi-recovery-max_attempts_per_day'), '2');
  await browsing.look(page, '33-settings-packs');
});

dashboard('a scheduled campaign: remove contacts by pasting numbers, then stop it', async () => {
  const scriptId = (await api.get('/v1/scripts')).body.data[0].id;
  const contacts = ['+919810000011', '+919810000012', '+919810000013'].map((phone, index) => ({ phone, name: `Later ${index}`, amount: 1, lender: 'Sahay' }));
  const created = await api.post('/v1/campaigns', { name: 'Next week', script_id: scriptId, language: 'ta-IN', contacts });
  assert.is(created.status, 201, created.text);
  await page.goto(`${server.baseUrl}/campaigns/${created.body.id}`);
  await page.fill('#phones', '+919810000011\n+919810000099');
  await page.click('button:has-text("Remove these contacts")');
  assert.match(await page.textContent('.flash') ?? '', /Removed 1; 0 already called \(kept\); 1 not in the campaign/);
  await page.click('button:has-text("Stop")');
  await page.waitForSelector('text=Campaign stopped.');
  assert.is(await page.locator('main form[method=post]').count(), 0, 'a stopped campaign offers no action');
  await browsing.look(page, '26-campaign-stopped');
});

dashboard('a call page left open past its recording link\'s hour still plays and seeks: the dashboard signs the link afresh for each fetch', async () => {
  await page.goto(`${server.baseUrl}/calls/${callId}`);
  const before = problems.length;
  // The player has fetched the start of the file (its metadata) before the hour passes.
  await waitFor('the recording\'s metadata', () => page.evaluate('document.querySelector("audio").readyState') as Promise<number>, (state) => state >= 1);
  const signed: string = (await api.get(`/v1/calls/${callId}`)).body.recording_url;
  await advanceClock(2 * 3_600);
  // The API's own link, handed out before, has expired: this is what a page holding it would have been refused.
  const direct = new URL(signed);
  assert.is((await page.evaluate(async (path) => (await fetch(path, { headers: { range: 'bytes=0-99' } })).status, `${direct.pathname}${direct.search}`)), 403);
  const ranged = await page.evaluate(async (path) => {
    const response = await fetch(path, { headers: { range: 'bytes=0-99' } });
    return { status: response.status, type: response.headers.get('content-type'), range: response.headers.get('content-range'), length: (await response.arrayBuffer()).byteLength };
  }, `/calls/${callId}/recording`);
  assert.equal({ status: ranged.status, type: ranged.type, length: ranged.length }, { status: 206, type: 'audio/wav', length: 100 });
  assert.match(ranged.range ?? '', /^bytes 0-99\/\d+$/);
  // The player itself, seeking into the file and playing on, after the hour.
  const duration = await page.evaluate('document.querySelector("audio").duration') as number;
  const target = Math.max(0, duration - 3);
  await page.evaluate(`(() => { const a = document.querySelector("audio"); a.muted = true; a.currentTime = ${target}; return a.play(); })()`);
  await waitFor('the recording playing after the hour', () => page.evaluate('document.querySelector("audio").currentTime') as Promise<number>, (time) => time > target + 0.2, 30_000);
  await page.evaluate('document.querySelector("audio").pause()');
  // A call that does not exist (or is another workspace's) has no recording: the API's 404, as a page.
  const missing = await page.goto(`${server.baseUrl}/calls/cal_doesnotexist/recording`);
  assert.is(missing?.status(), 404);
  // The refusals this test asked for (the expired link's 403, the 404) are the browser's console errors too.
  const asked = problems.splice(before);
  problems.push(...asked.filter((problem) => !/status of (403|404)/.test(problem)));
});

dashboard('sign out ends the session', async () => {
  // The Overview loads parts of itself after the page: signing out while one is on its way makes it a refused
  // request (a console error), which is right, but not what this step checks.
  await page.goto(`${server.baseUrl}/`, { waitUntil: 'networkidle' });
  const before = problems.length;
  await page.click('button:has-text("Sign out")');
  await page.waitForURL(/\/sign-in\?ended=signed-out$/);
  // Even after the network was idle, a part may set off as the button is pressed (seen once in CI: a 403 from
  // the ended session). Only that refusal is forgiven here, and only between the click and the sign-in page.
  const during = problems.splice(before);
  problems.push(...during.filter((problem) => !/status of 403/.test(problem)));
  await page.goto(`${server.baseUrl}/campaigns`);
  assert.match(page.url(), /\/sign-in$/);
  assert.equal(problems, []);
});

dashboard('headers and refusals without a browser: CSP, frame, CSRF, no key in the session cookie', async () => {
  const signInPage = await fetch(`${server.baseUrl}/sign-in`);
  const csp = signInPage.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'/);
  assert.not.match(csp, /unsafe-inline|unsafe-eval/);
  assert.is(signInPage.headers.get('x-frame-options'), 'DENY');
  const token = /name="_csrf" value="([^"]+)"/.exec(await signInPage.text())![1]!;
  const preCookie = signInPage.headers.get('set-cookie')!.split(';')[0]!;
  const signedIn = await fetch(`${server.baseUrl}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: preCookie },
    body: new URLSearchParams({ _csrf: token, key: owner.key, time_zone: 'Asia/Kolkata' }),
  });
  assert.is(signedIn.status, 303);
  const session = signedIn.headers.get('set-cookie')!.split(', ').find((cookie) => cookie.startsWith('dashboard_session='))!;
  assert.match(session, /HttpOnly/);
  assert.match(session, /SameSite=Strict/);
  const cookie = session.split(';')[0]!;
  // A state-changing form without the session's CSRF token, or from another origin, does nothing.
  const noToken = await fetch(`${server.baseUrl}/do-not-call`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: 'phone=%2B919888888888' });
  assert.is(noToken.status, 403);
  const overview = await (await fetch(`${server.baseUrl}/`, { headers: { cookie } })).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(overview)![1]!;
  const crossSite = await fetch(`${server.baseUrl}/do-not-call`, { method: 'POST', redirect: 'manual', headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: `phone=%2B919888888888&_csrf=${csrf}` });
  assert.is(crossSite.status, 403);
  assert.is((await api.get('/v1/suppressions/%2B919888888888')).status, 404);
  // The API under /v1 is untouched by the dashboard: JSON errors, bearer keys only (a session cookie is no key).
  const apiWithCookie = await fetch(`${server.baseUrl}/v1/campaigns`, { headers: { cookie } });
  assert.is(apiWithCookie.status, 401);
  // Live views: at most 4 streams per session; a closed one frees its slot; an unknown audit has no stream.
  const openStream = async () => {
    const controller = new AbortController();
    const response = await fetch(`${server.baseUrl}/live/stream`, { headers: { cookie }, signal: controller.signal });
    if (response.status !== 200) await response.text();
    return { status: response.status, close: () => controller.abort() };
  };
  const streams = [await openStream(), await openStream(), await openStream(), await openStream()];
  assert.equal(streams.map((stream) => stream.status), [200, 200, 200, 200]);
  assert.is((await openStream()).status, 429);
  streams.shift()!.close();
  const again = await waitFor('a closed stream to free its slot', openStream, (stream) => stream.status === 200);
  for (const stream of [...streams, again]) stream.close();
  assert.is((await fetch(`${server.baseUrl}/compliance/audits/aud_nope/progress`, { headers: { cookie } })).status, 404);
  // The key never reaches the server's log.
  assert.not.match(server.output(), owner.key);

  // A restart keeps the session (the state database holds its hashed id), with its zone and CSRF token.
  await server.restart();
  const afterRestart = await fetch(`${server.baseUrl}/`, { headers: { cookie }, redirect: 'manual' });
  assert.is(afterRestart.status, 200);
  const page2 = await afterRestart.text();
  assert.is(/name="_csrf" value="([^"]+)"/.exec(page2)![1], csrf, 'the same CSRF token');
  assert.match(page2, /Times are in Asia\/Kolkata/);
});

dashboard.run();
