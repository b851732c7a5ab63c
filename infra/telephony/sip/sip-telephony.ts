import { performance } from 'node:perf_hooks';
import { randomInt } from 'node:crypto';
import type { PlaceCallRequest, PlaceCallResult, Telephony, TransferTarget } from '../port.ts';
import { AgentLeg, type AgentLegDial } from './agent-leg.ts';
import { CallRateLimiter } from './call-rate-limiter.ts';
import { outcomeOfFinalResponse } from './final-response.ts';
import { mediaThread } from './media-thread.ts';
import { RtpPortPool, RtpStream } from './rtp-stream.ts';
import { buildSdp, parseSdp } from './sdp.ts';
import { SipCallSession } from './sip-call-session.ts';
import type { SipSettings } from './sip-settings.ts';
import { SipUserAgent } from './user-agent.ts';

/**
 * The SIP trunk carrier (`TELEPHONY=sip`): each call is an INVITE to the trunk with a G.711 offer, paced by
 * SIP_MAX_CPS and cancelled after RING_TIMEOUT_SECONDS; the final response maps to the port's outcomes
 * (final-response.ts); an answered call becomes a SipCallSession over its own RTP stream.
 */
/** Longest call whose customer audio we keep (the track's memory bound). */
const MAX_CALL_SECONDS = 3600;

export class SipTelephony implements Telephony {
  readonly name = 'sip';
  readonly needsPromptAudio = true;
  readonly timeScale = 1;
  private readonly agent: SipUserAgent;
  private readonly ports: RtpPortPool;
  private readonly limiter: CallRateLimiter;

  constructor(
    private readonly settings: SipSettings,
    log?: (message: string, fields?: Record<string, unknown>) => void,
  ) {
    this.agent = new SipUserAgent(settings, log);
    this.ports = new RtpPortPool(settings.rtpPorts.low, settings.rtpPorts.high);
    this.limiter = new CallRateLimiter(settings.maxCallsPerSecond);
  }

  start(): Promise<void> {
    // The media thread compiles while the user agent starts, not with the first call.
    mediaThread.configure({ nice: this.settings.mediaThreadNice ?? 0, realtimePriority: this.settings.mediaThreadRealtimePriority ?? 0 });
    mediaThread.start();
    return this.agent.start();
  }

  async close(): Promise<void> {
    this.agent.close();
  }

  async placeCall(request: PlaceCallRequest): Promise<PlaceCallResult> {
    await this.limiter.acquire();
    const { socket, port } = await this.ports.open(this.settings.localAddress);
    const stream = new RtpStream(socket, port, this.ports, MAX_CALL_SECONDS);
    const sessionId = randomInt(1, 2 ** 31);
    const dialledAt = performance.now();
    // Early media (183 with SDP: ringback, announcements): the media timeline starts at its first moment, so the
    // recording has it before the answer.
    let early = false;
    const onProvisional = (_status: number, sdp: string | undefined) => {
      const remote = sdp === undefined || early ? null : parseSdp(sdp);
      if (!remote) return;
      early = true;
      stream.setRemote(remote);
      stream.start();
    };
    let result;
    try {
      result = await this.agent.invite({
        to: request.to,
        from: request.callerId ?? this.settings.callerId,
        sdp: buildSdp({ address: this.settings.localAddress, port, sessionId, version: 1 }),
        ringTimeoutSeconds: this.settings.ringTimeoutSeconds,
        onProvisional,
      });
    } catch (error) {
      stream.close();
      throw error;
    }
    const ringSeconds = Math.round((performance.now() - dialledAt) / 10) / 100;
    if (result.kind === 'failed') {
      stream.close();
      const outcome = result.timedOut ? 'no_answer' : outcomeOfFinalResponse(result.status);
      return { outcome: outcome === 'answered' ? 'carrier_error' : outcome, ringSeconds, detail: result.timedOut ? `no answer within ${this.settings.ringTimeoutSeconds} s (CANCEL sent)` : result.reason };
    }
    const remote = parseSdp(result.sdp);
    if (!remote) {
      stream.close();
      await this.agent.bye(result.dialog);
      return { outcome: 'carrier_error', ringSeconds, detail: 'the answer had no G.711 audio (PCMA/PCMU) in its SDP' };
    }
    stream.setRemote(remote);
    const mediaLeadSeconds = early ? stream.now() : 0;
    if (!early) stream.start();
    const session = new SipCallSession(
      this.agent,
      result.dialog,
      stream,
      { address: this.settings.localAddress, sessionId },
      mediaLeadSeconds,
      this.settings.answeringMachineDetection,
      (target, callerId, signal) => this.dialAgent(target, callerId ?? request.callerId, signal),
      this.settings.endOfUtteranceMs,
    );
    return { outcome: 'answered', ringSeconds, session };
  }

  /**
   * A warm transfer's agent leg: an INVITE to the agent's `sip_uri` (to its host, not through the trunk) or to
   * their phone through the trunk (paced by SIP_MAX_CPS like any call), rung for SIP_TRANSFER_ANSWER_SECONDS.
   */
  private async dialAgent(target: TransferTarget, callerId: string | undefined, signal: AbortSignal): Promise<AgentLegDial> {
    if (target.sipUri === null && target.phone === null) return { kind: 'failed', detail: 'the agent has neither a sip_uri nor a phone' };
    if (target.sipUri === null) await this.limiter.acquire();
    const { socket, port } = await this.ports.open(this.settings.localAddress);
    const stream = new RtpStream(socket, port, this.ports, MAX_CALL_SECONDS);
    const sessionId = randomInt(1, 2 ** 31);
    let result;
    try {
      result = await this.agent.invite({
        to: target.phone ?? '',
        ...(target.sipUri === null ? {} : { uri: target.sipUri }),
        from: callerId ?? this.settings.callerId,
        sdp: buildSdp({ address: this.settings.localAddress, port, sessionId, version: 1 }),
        ringTimeoutSeconds: this.settings.transferAnswerSeconds,
        signal,
      });
    } catch (error) {
      stream.close();
      return { kind: 'failed', detail: error instanceof Error ? error.message : String(error) };
    }
    if (result.kind === 'failed') {
      stream.close();
      if (result.cancelled) return { kind: 'failed', detail: 'the customer hung up while the agent\'s phone rang (CANCEL sent)' };
      return { kind: 'failed', detail: result.timedOut ? `the agent did not answer within ${this.settings.transferAnswerSeconds} s (CANCEL sent)` : result.reason };
    }
    const remote = parseSdp(result.sdp);
    if (!remote) {
      stream.close();
      await this.agent.bye(result.dialog);
      return { kind: 'failed', detail: 'the agent\'s answer had no G.711 audio (PCMA/PCMU) in its SDP' };
    }
    stream.setRemote(remote);
    stream.start();
    return { kind: 'answered', leg: new AgentLeg(this.agent, result.dialog, stream, { address: this.settings.localAddress, sessionId }) };
  }
}
