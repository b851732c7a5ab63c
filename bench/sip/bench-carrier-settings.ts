import type { SipSettings } from '../../infra/telephony/sip/sip-settings.ts';

/**
 * The carrier both phases of bench:sip dial with: straight to a sipp peer (no trunk authentication, no
 * registration), AMD off, and the media thread's priority from MEDIA_THREAD_NICE / MEDIA_THREAD_REALTIME_PRIORITY as
 * the service would take them (default real-time priority 10).
 */
export function benchCarrierSettings(options: { peer: string; localPort: number; rtpPorts: { low: number; high: number }; maxCallsPerSecond: number }): SipSettings {
  return {
    trunk: { host: options.peer, port: 5060 },
    transport: 'udp',
    credentials: null,
    register: false,
    callerId: '+911140000000',
    localAddress: '127.0.0.1',
    localPort: options.localPort,
    rtpPorts: options.rtpPorts,
    ringTimeoutSeconds: 30,
    maxCallsPerSecond: options.maxCallsPerSecond,
    answeringMachineDetection: false,
    mediaThreadNice: Number(process.env.MEDIA_THREAD_NICE ?? 0),
    mediaThreadRealtimePriority: Number(process.env.MEDIA_THREAD_REALTIME_PRIORITY ?? 10),
    transferAnswerSeconds: 20,
  };
}
