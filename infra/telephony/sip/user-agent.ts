import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import sip, { type NameAddr, type Remote, type SipMessage, type Stack } from 'sip';
import digest from 'sip/digest.js';
import type { SipSettings } from './sip-settings.ts';

/**
 * A small SIP user agent over `sip` (kirm/sip.js: parsing, UDP/TCP transport, transactions, digest). That library
 * has no dialog layer, so this file keeps the dialogs of our outbound calls itself: the INVITE with one digest
 * retry, CANCEL on ring timeout, ACK for 2xx, BYE either way, re-INVITE (hold) and INFO (DTMF) inside a dialog,
 * OPTIONS answered, REGISTER with refresh. Everything about media is the caller's (sdp.ts, rtp-stream.ts).
 */
export interface Dialog {
  callId: string;
  localTag: string;
  remoteTag: string;
  localUri: string;
  remoteUri: string;
  /** The peer's Contact: where in-dialog requests go. */
  remoteTarget: string;
  routeSet: NameAddr[];
  localCSeq: number;
}

export interface DialogHandlers {
  /** The peer hung up. */
  onBye(): void;
  /** A re-INVITE (hold, resume, a new media address): the SDP answer, or null to refuse with 488. */
  onReinvite(offer: string | undefined): string | null;
  /** A key pressed, sent by SIP INFO (application/dtmf-relay or application/dtmf). */
  onDtmf(digit: string): void;
}

export type InviteResult =
  | { kind: 'answered'; dialog: Dialog; sdp: string; provisional: number[] }
  | { kind: 'failed'; status: number; reason: string; provisional: number[]; timedOut: boolean; cancelled?: boolean };

export interface InviteRequest {
  /** E.164 number dialled through the trunk. */
  to: string;
  /**
   * A SIP URI dialled directly instead of `to` at the trunk (a warm transfer to an agent's `sip_uri`): the
   * request goes to the URI's host, not through the trunk.
   */
  uri?: string;
  /** E.164 caller id for this call. */
  from: string;
  sdp: string;
  ringTimeoutSeconds: number;
  onProvisional?(status: number, sdp: string | undefined): void;
  /** Aborted: stop ringing now (CANCEL), as at the ring timeout; the result says `cancelled`. */
  signal?: AbortSignal;
}

const ALLOW = 'INVITE, ACK, CANCEL, BYE, OPTIONS, INFO, UPDATE, NOTIFY';
const USER_AGENT = 'voice-agent-sip/1';
/** How long we wait for the final answer to a CANCEL or a BYE before treating the call as gone anyway. */
const FINAL_WAIT_MS = 5_000;

export class SipUserAgent {
  private stack: Stack | null = null;
  private readonly dialogs = new Map<string, { dialog: Dialog; handlers: DialogHandlers }>();
  private registration: NodeJS.Timeout | null = null;

  constructor(
    private readonly settings: SipSettings,
    private readonly log: (message: string, fields?: Record<string, unknown>) => void = () => undefined,
  ) {}

  /** Binds the SIP port (a clear error when it is taken), then registers when SIP_REGISTER is on. */
  async start(): Promise<void> {
    await assertPortFree(this.settings.localAddress, this.settings.localPort, this.settings.transport);
    this.stack = sip.create(
      {
        address: this.settings.localAddress,
        publicAddress: this.settings.localAddress,
        port: this.settings.localPort,
        udp: this.settings.transport === 'udp',
        tcp: this.settings.transport === 'tcp',
        logger: { error: (error) => this.log('sip stack error', { error: String(error) }) },
      },
      (request, remote) => this.onRequest(request, remote),
    );
    if (this.settings.register) await this.register();
  }

  close(): void {
    if (this.registration) clearTimeout(this.registration);
    this.registration = null;
    this.stack?.destroy();
    this.stack = null;
  }

  get activeDialogs(): number {
    return this.dialogs.size;
  }

  invite(request: InviteRequest): Promise<InviteResult> {
    const stack = this.requireStack();
    const callId = `${randomToken(16)}@${this.settings.localAddress}`;
    const localTag = randomToken(8);
    const localUri = `sip:${request.from}@${hostForUri(this.settings.localAddress)}`;
    const remoteUri = request.uri ?? `sip:${request.to}@${hostForUri(this.settings.trunk.host)}`;
    const requestUri = this.withTransport(request.uri ?? `sip:${request.to}@${hostForUri(this.settings.trunk.host)}:${this.settings.trunk.port}`);
    const provisional: number[] = [];
    let seq = 1;
    let authenticated = false;
    let timedOut = false;
    let cancelledByCaller = false;
    let settled = false;
    let sent: SipMessage | null = null;
    let ringTimer: NodeJS.Timeout | null = null;
    let cancelWait: NodeJS.Timeout | null = null;

    const build = (): SipMessage => ({
      method: 'INVITE',
      uri: requestUri,
      headers: {
        to: { uri: remoteUri, params: {} },
        from: { uri: localUri, params: { tag: localTag } },
        // The caller id the customer should see: trunks present P-Asserted-Identity (RFC 3325) and fall back to
        // From; both carry the same number, so either way it is the one chosen for this call.
        'p-asserted-identity': `<${localUri}>`,
        'call-id': callId,
        cseq: { method: 'INVITE', seq },
        contact: [{ uri: this.contactUri(request.from), params: {} }],
        'max-forwards': 70,
        allow: ALLOW,
        'user-agent': USER_AGENT,
        'content-type': 'application/sdp',
      },
      content: request.sdp,
    });

    return new Promise<InviteResult>((resolve) => {
      const finish = (result: InviteResult) => {
        if (settled) return;
        settled = true;
        if (result.kind === 'failed' && cancelledByCaller) result.cancelled = true;
        if (ringTimer) clearTimeout(ringTimer);
        if (cancelWait) clearTimeout(cancelWait);
        resolve(result);
      };
      const cancel = () => {
        timedOut = true;
        if (!sent) return;
        const invite = sent;
        // CANCEL matches the INVITE's transaction: same Via branch, Call-ID, From, To (without tag) and CSeq number.
        stack.send({
          method: 'CANCEL',
          uri: invite.uri,
          headers: {
            via: invite.headers.via,
            to: invite.headers.to,
            from: invite.headers.from,
            'call-id': callId,
            cseq: { method: 'CANCEL', seq: invite.headers.cseq!.seq },
            'max-forwards': 70,
          },
        });
        cancelWait = setTimeout(() => finish({ kind: 'failed', status: 487, reason: 'ring timeout (no answer to CANCEL)', provisional, timedOut: true }), FINAL_WAIT_MS);
      };
      const onResponse = (response: SipMessage) => {
        const status = response.status ?? 500;
        if (status < 200) {
          provisional.push(status);
          request.onProvisional?.(status, response.content || undefined);
          return;
        }
        if ((status === 401 || status === 407) && !authenticated && this.settings.credentials && !timedOut) {
          authenticated = true;
          seq += 1;
          const retry = build();
          digest.signRequest({}, retry, response, { user: this.settings.credentials.username, password: this.settings.credentials.password });
          sent = retry;
          stack.send(retry, onResponse);
          return;
        }
        if (status >= 200 && status < 300) {
          const dialog: Dialog = {
            callId,
            localTag,
            remoteTag: String(response.headers.to?.params.tag ?? ''),
            localUri,
            remoteUri,
            remoteTarget: this.withTransport(firstContact(response) ?? requestUri),
            routeSet: [...(response.headers['record-route'] ?? [])].reverse(),
            localCSeq: seq,
          };
          this.sendAck(dialog, seq);
          if (timedOut || settled) {
            // The callee answered just as we gave up: take the call down cleanly.
            void this.bye(dialog);
            finish({ kind: 'failed', status: 487, reason: 'ring timeout', provisional, timedOut: true });
            return;
          }
          finish({ kind: 'answered', dialog, sdp: response.content ?? '', provisional });
          return;
        }
        finish({ kind: 'failed', status, reason: timedOut ? 'ring timeout' : `${status} ${response.reason ?? ''}`.trim(), provisional, timedOut });
      };
      sent = build();
      stack.send(sent, onResponse);
      ringTimer = setTimeout(cancel, request.ringTimeoutSeconds * 1000);
      request.signal?.addEventListener('abort', () => {
        if (settled || timedOut) return;
        if (ringTimer) clearTimeout(ringTimer);
        cancelledByCaller = true;
        cancel();
      }, { once: true });
    });
  }

  /** Handlers for requests inside an answered call's dialog. */
  attach(dialog: Dialog, handlers: DialogHandlers): void {
    this.dialogs.set(dialog.callId, { dialog, handlers });
  }

  /** Hangs up from our side; resolves when the peer answered the BYE (or after a few seconds without answer). */
  bye(dialog: Dialog): Promise<number> {
    this.dialogs.delete(dialog.callId);
    return this.inDialog(dialog, 'BYE');
  }

  /** Sends a key as SIP INFO (application/dtmf-relay), for peers that did not offer telephone-event. */
  info(dialog: Dialog, digit: string): Promise<number> {
    return this.inDialog(dialog, 'INFO', { type: 'application/dtmf-relay', body: `Signal=${digit}\r\nDuration=160\r\n` });
  }

  private inDialog(dialog: Dialog, method: string, content?: { type: string; body: string }): Promise<number> {
    const stack = this.stack;
    if (!stack) return Promise.resolve(0);
    dialog.localCSeq += 1;
    const message: SipMessage = {
      method,
      uri: dialog.remoteTarget,
      headers: {
        to: { uri: dialog.remoteUri, params: { tag: dialog.remoteTag } },
        from: { uri: dialog.localUri, params: { tag: dialog.localTag } },
        'call-id': dialog.callId,
        cseq: { method, seq: dialog.localCSeq },
        'max-forwards': 70,
        'user-agent': USER_AGENT,
        ...(dialog.routeSet.length > 0 ? { route: dialog.routeSet.map((route) => ({ ...route, params: { ...route.params } })) } : {}),
        ...(content ? { 'content-type': content.type } : {}),
      },
      ...(content ? { content: content.body } : {}),
    };
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(0), FINAL_WAIT_MS);
      stack.send(message, (response) => {
        if ((response.status ?? 0) < 200) return;
        clearTimeout(timer);
        resolve(response.status ?? 0);
      });
    });
  }

  private sendAck(dialog: Dialog, seq: number): void {
    this.stack?.send({
      method: 'ACK',
      uri: dialog.remoteTarget,
      headers: {
        to: { uri: dialog.remoteUri, params: { tag: dialog.remoteTag } },
        from: { uri: dialog.localUri, params: { tag: dialog.localTag } },
        'call-id': dialog.callId,
        cseq: { method: 'ACK', seq },
        'max-forwards': 70,
        ...(dialog.routeSet.length > 0 ? { route: dialog.routeSet.map((route) => ({ ...route, params: { ...route.params } })) } : {}),
      },
    });
  }

  private onRequest(request: SipMessage, _remote: Remote): void {
    const stack = this.stack;
    if (!stack) return;
    const method = request.method ?? '';
    if (method === 'ACK') return; // for our 2xx to a re-INVITE; nothing to do
    const entry = this.dialogs.get(request.headers['call-id'] ?? '');
    const inDialog = entry !== undefined && request.headers.to?.params.tag === entry.dialog.localTag;
    const reply = (status: number, reason?: string, extra?: { headers?: Record<string, unknown>; sdp?: string }) => {
      const response = sip.makeResponse(request, status, reason);
      response.headers['user-agent'] = USER_AGENT;
      if (extra?.headers) Object.assign(response.headers, extra.headers);
      if (extra?.sdp !== undefined) {
        response.headers['content-type'] = 'application/sdp';
        response.content = extra.sdp;
      }
      stack.send(response);
    };
    switch (method) {
      case 'OPTIONS':
        reply(200, 'OK', { headers: { allow: ALLOW, accept: 'application/sdp, application/dtmf-relay', supported: '' } });
        return;
      case 'BYE':
        if (!inDialog) return reply(481, 'Call/Transaction Does Not Exist');
        this.dialogs.delete(entry.dialog.callId);
        reply(200, 'OK');
        entry.handlers.onBye();
        return;
      case 'INVITE': {
        if (!inDialog) return reply(603, 'Decline'); // we place calls; we do not take them
        const answer = entry.handlers.onReinvite(request.content || undefined);
        if (answer === null) return reply(488, 'Not Acceptable Here');
        const contact = firstContact(request);
        if (contact) entry.dialog.remoteTarget = this.withTransport(contact);
        reply(200, 'OK', { headers: { contact: [{ uri: this.contactUri(this.settings.callerId), params: {} }], allow: ALLOW }, sdp: answer });
        return;
      }
      case 'INFO': {
        if (!inDialog) return reply(481, 'Call/Transaction Does Not Exist');
        const digit = dtmfOfInfo(String(request.headers['content-type'] ?? ''), request.content ?? '');
        reply(200, 'OK');
        if (digit) entry.handlers.onDtmf(digit);
        return;
      }
      case 'UPDATE':
      case 'NOTIFY':
        return reply(inDialog ? 200 : 481, inDialog ? 'OK' : 'Call/Transaction Does Not Exist');
      case 'CANCEL':
        return reply(481, 'Call/Transaction Does Not Exist');
      default:
        return reply(405, 'Method Not Allowed', { headers: { allow: ALLOW } });
    }
  }

  /** REGISTER with digest, refreshed before it expires (at 80% of the granted time). */
  private async register(): Promise<void> {
    const stack = this.requireStack();
    const { username, password } = this.settings.credentials!;
    const aor = `sip:${username}@${hostForUri(this.settings.trunk.host)}`;
    const callId = `${randomToken(16)}@${this.settings.localAddress}`;
    const tag = randomToken(8);
    let seq = 0;
    const attempt = (): Promise<number> =>
      new Promise((resolve, reject) => {
        let challenged = false;
        const build = (): SipMessage => ({
          method: 'REGISTER',
          uri: this.withTransport(`sip:${hostForUri(this.settings.trunk.host)}:${this.settings.trunk.port}`),
          headers: {
            to: { uri: aor, params: {} },
            from: { uri: aor, params: { tag } },
            'call-id': callId,
            cseq: { method: 'REGISTER', seq: ++seq },
            contact: [{ uri: this.contactUri(username), params: {} }],
            expires: 3600,
            'max-forwards': 70,
            'user-agent': USER_AGENT,
          },
        });
        const onResponse = (response: SipMessage) => {
          const status = response.status ?? 500;
          if (status < 200) return;
          if ((status === 401 || status === 407) && !challenged) {
            challenged = true;
            const retry = build();
            digest.signRequest({}, retry, response, { user: username, password });
            stack.send(retry, onResponse);
            return;
          }
          if (status >= 300) return reject(new Error(`SIP registration refused: ${status} ${response.reason ?? ''}`.trim()));
          resolve(Number(response.headers.expires ?? 3600) || 3600);
        };
        stack.send(build(), onResponse);
      });
    const expires = await attempt();
    const refresh = (seconds: number) => {
      this.registration = setTimeout(() => {
        attempt().then(refresh, (error: unknown) => {
          this.log('sip registration refresh failed; retrying in 30 s', { error: String(error) });
          refresh(37.5); // 80% of 37.5 s = 30 s
        });
      }, Math.max(1, seconds * 0.8) * 1000);
      this.registration.unref();
    };
    refresh(expires);
  }

  private contactUri(user: string): string {
    return this.withTransport(`sip:${user.replace(/^\+/, '')}@${hostForUri(this.settings.localAddress)}:${this.settings.localPort}`);
  }

  private withTransport(uri: string): string {
    if (this.settings.transport !== 'tcp' || /;transport=/i.test(uri)) return uri;
    return uri.replace(/^(<?)([^>]*)(>?)$/, (_all, open: string, body: string, close: string) => `${open}${body};transport=tcp${close}`);
  }

  private requireStack(): Stack {
    if (!this.stack) throw new Error('the SIP user agent is not started');
    return this.stack;
  }
}

function firstContact(message: SipMessage): string | undefined {
  const contact = message.headers.contact;
  return Array.isArray(contact) && contact.length > 0 ? contact[0]!.uri : undefined;
}

/** `application/dtmf-relay` (`Signal=5`) or `application/dtmf` (`5`). */
export function dtmfOfInfo(contentType: string, body: string): string | null {
  const type = contentType.toLowerCase();
  const value = type.includes('dtmf-relay') ? /Signal\s*=\s*([0-9*#A-Da-d])/i.exec(body)?.[1] : type.includes('application/dtmf') ? /^\s*([0-9*#A-Da-d])/.exec(body)?.[1] : undefined;
  return value ? value.toUpperCase() : null;
}

function hostForUri(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** sip.js binds in the background and would crash on a taken port: check first, with a message that says which. */
async function assertPortFree(address: string, port: number, transport: 'udp' | 'tcp'): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => reject(new Error(`cannot bind SIP ${transport} ${address}:${port} (SIP_LOCAL_ADDRESS/SIP_LOCAL_PORT): ${error.message}`));
    if (transport === 'udp') {
      const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
      socket.once('error', fail);
      socket.bind(port, address, () => socket.close(() => resolve()));
    } else {
      const server = createServer();
      server.once('error', fail);
      server.listen(port, address, () => server.close(() => resolve()));
    }
  });
}
