import type { TransferTarget } from '../port.ts';
import { answerReinvite } from './reinvite-answer.ts';
import type { RtpStream } from './rtp-stream.ts';
import type { Dialog, SipUserAgent } from './user-agent.ts';

/**
 * A warm transfer's second call: the human agent's leg, answered, with its own RTP stream. It only carries audio
 * (the whisper, then the bridge); keys the agent presses are not relayed. `hungUp` turns true on the agent's BYE
 * or ours, and `onHangUp` tells the transfer the agent left.
 */
export class AgentLeg {
  hungUp = false;
  onHangUp: (() => void) | null = null;
  private sdpVersion = 1;

  constructor(
    private readonly agent: SipUserAgent,
    private readonly dialog: Dialog,
    readonly stream: RtpStream,
    private readonly local: { address: string; sessionId: number },
  ) {
    agent.attach(dialog, {
      onBye: () => {
        this.hungUp = true;
        this.stream.close();
        this.onHangUp?.();
      },
      onReinvite: (offer) => answerReinvite(this.stream, this.local, ++this.sdpVersion, offer),
      onDtmf: () => undefined,
    });
  }

  /** Our side hangs up (BYE) unless the agent already did; the stream closes either way. */
  async hangUp(): Promise<void> {
    this.stream.close();
    if (this.hungUp) return;
    this.hungUp = true;
    await this.agent.bye(this.dialog);
  }
}

export type AgentLegDial = { kind: 'answered'; leg: AgentLeg } | { kind: 'failed'; detail: string };

/**
 * Dials the agent (their SIP URI directly, else their phone through the trunk), ringing at most the transfer's
 * answer limit; `signal` aborted (the customer hung up) cancels the ringing.
 */
export type AgentLegDialer = (target: TransferTarget, callerId: string | undefined, signal: AbortSignal) => Promise<AgentLegDial>;
