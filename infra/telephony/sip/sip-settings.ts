import type { Config } from '../../config.ts';

/** The SIP carrier's settings, parsed from the validated configuration (infra/config.ts checks every value). */
export interface SipSettings {
  trunk: { host: string; port: number };
  transport: 'udp' | 'tcp';
  credentials: { username: string; password: string } | null;
  register: boolean;
  /** E.164; the From user of every INVITE. */
  callerId: string;
  /** The IP we bind and announce in Via, Contact and SDP. */
  localAddress: string;
  localPort: number;
  rtpPorts: { low: number; high: number };
  ringTimeoutSeconds: number;
  maxCallsPerSecond: number;
  /** Answering-machine detection on answered calls (SIP_AMD). */
  answeringMachineDetection: boolean;
  /** The media thread's nice value (MEDIA_THREAD_NICE); 0 when absent. */
  mediaThreadNice?: number;
  /** The media thread's SCHED_RR priority (MEDIA_THREAD_REALTIME_PRIORITY); 0 (absent): not real-time. */
  mediaThreadRealtimePriority?: number;
  /** A warm transfer's agent leg rings this long before the customer hears the fallback (SIP_TRANSFER_ANSWER_SECONDS). */
  transferAnswerSeconds: number;
  /** The pause that ends a spoken answer (SIP_END_OF_UTTERANCE_MS); default DEFAULT_END_SILENCE_MS. */
  endOfUtteranceMs?: number;
}

export type SipConfig = Pick<
  Config,
  | 'SIP_TRUNK'
  | 'SIP_TRANSPORT'
  | 'SIP_USERNAME'
  | 'SIP_PASSWORD'
  | 'SIP_REGISTER'
  | 'SIP_CALLER_ID'
  | 'SIP_LOCAL_ADDRESS'
  | 'SIP_LOCAL_PORT'
  | 'RTP_PORT_RANGE'
  | 'RING_TIMEOUT_SECONDS'
  | 'SIP_MAX_CPS'
  | 'SIP_AMD'
  | 'MEDIA_THREAD_NICE'
  | 'MEDIA_THREAD_REALTIME_PRIORITY'
  | 'SIP_TRANSFER_ANSWER_SECONDS'
  | 'SIP_END_OF_UTTERANCE_MS'
>;

export function sipSettingsFrom(config: SipConfig): SipSettings {
  if (!config.SIP_TRUNK || !config.SIP_LOCAL_ADDRESS || !config.SIP_CALLER_ID) {
    throw new Error('TELEPHONY=sip needs SIP_TRUNK, SIP_LOCAL_ADDRESS and SIP_CALLER_ID');
  }
  const [low, high] = config.RTP_PORT_RANGE.split('-').map(Number) as [number, number];
  return {
    trunk: parseHostPort(config.SIP_TRUNK),
    transport: config.SIP_TRANSPORT,
    credentials: config.SIP_USERNAME && config.SIP_PASSWORD ? { username: config.SIP_USERNAME, password: config.SIP_PASSWORD } : null,
    register: config.SIP_REGISTER,
    callerId: config.SIP_CALLER_ID,
    localAddress: config.SIP_LOCAL_ADDRESS,
    localPort: config.SIP_LOCAL_PORT,
    rtpPorts: { low, high },
    ringTimeoutSeconds: config.RING_TIMEOUT_SECONDS,
    maxCallsPerSecond: config.SIP_MAX_CPS,
    answeringMachineDetection: config.SIP_AMD,
    mediaThreadNice: config.MEDIA_THREAD_NICE,
    mediaThreadRealtimePriority: config.MEDIA_THREAD_REALTIME_PRIORITY,
    transferAnswerSeconds: config.SIP_TRANSFER_ANSWER_SECONDS,
    endOfUtteranceMs: config.SIP_END_OF_UTTERANCE_MS,
  };
}

/** `host`, `host:port`, `[v6]` or `[v6]:port`; 5060 when no port is given. */
export function parseHostPort(value: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : 5060 };
  const [host, port] = value.split(':');
  return { host: host!, port: port ? Number(port) : 5060 };
}
