/**
 * Calls, QA results and agents for report tests and `npm run bench:reports`, written through the deciders and the
 * command handler (as bench/analytics.ts does): `calls` calls spread evenly over `days` days from `firstDay`, in
 * 4 campaigns and 3 agents (Devanagari, Tamil and Telugu names), every 5th call a single call without a campaign,
 * consecutive calls (2k, 2k+1) two attempts at one contact; 60% connected (deterministic: index % 5 < 3), each connected call
 * scored on two parameters. The expected totals follow from the index alone, so tests can check figures.
 * With `compliance` (the benchmark), each connected call also has a compliance evaluation under the recovery pack,
 * every 7th failing `no_threats` with one finding, so that compliance_audit has a log and checks to read.
 */
import type { Runtime } from '../composition.ts';
import { agentDecider, agentStream } from '../domain/agent.ts';
import { callDecider, callStream, callTranscriptJobId, type CallCommand } from '../domain/call.ts';
import { defaultPack } from '../domain/compliance/packs.ts';
import { complianceResultDecider, complianceResultStream } from '../domain/compliance/result.ts';
import { transcriptionJobDecider, transcriptionJobStream, type TranscriptionJobCommand } from '../domain/transcription-job.ts';

export const REPORT_AGENTS = [
  { id: 'agt_asha', name: 'आशा पाटील', language: 'hi-IN', phone: '+919800000001' },
  { id: 'agt_murugan', name: 'முருகன் செல்வம்', language: 'ta-IN', phone: '+919800000002' },
  { id: 'agt_venkat', name: 'వెంకట్ రావు', language: 'te-IN', phone: '+919800000003' },
] as const;
export const REPORT_CAMPAIGNS = ['cmp_reporta', 'cmp_reportb', 'cmp_reportc', 'cmp_reportd'];
const INTENTS = ['loan_renewal_interest', 'complaint', 'payment_query'];

export interface SeedOptions {
  workspaceId: string;
  calls: number;
  days: number;
  firstDay: string;
  inFlight?: number;
  /** Also record a compliance evaluation for every connected call (bench:reports). */
  compliance?: boolean;
}

export function connectedAt(index: number): boolean {
  return index % 5 < 3;
}

export async function seedReportFacts(runtime: Runtime, options: SeedOptions): Promise<void> {
  const { workspaceId, calls, days } = options;
  const first = Date.parse(`${options.firstDay}T00:00:00Z`);
  const now = runtime.clock.now();
  const context = () => ({ workspaceId, actor: 'seed', now });
  for (const agent of REPORT_AGENTS) {
    await runtime.commands.handle(
      agentDecider,
      agentStream(agent.id),
      { type: 'RegisterAgent', agentId: agent.id, workspaceId, profile: { name: agent.name, languages: [agent.language], phone: agent.phone, sip_uri: null, status: 'available' }, now },
      context(),
      { tolerate: ['already_exists'] },
    );
  }
  const one = async (index: number) => {
    const callId = `cal_seed${index}`;
    const agent = REPORT_AGENTS[index % 3]!;
    const single = index % 5 === 4;
    const startedAt = new Date(first + Math.floor((index / calls) * days * 86_400_000) + 60_000);
    const connected = connectedAt(index);
    const duration = connected ? 30 + (index % 7) * 10 : 0;
    const at = (seconds: number) => new Date(startedAt.getTime() + seconds * 1000).toISOString();
    const handleCall = (command: CallCommand) => runtime.commands.handle(callDecider, callStream(callId), command, context());
    await handleCall({
      type: 'PlaceCall',
      facts: { suppressed: false, script: { version: 1, single_call_enabled: true, variables: [] }, agent_found: true },
      data: {
        call_id: callId,
        workspace_id: workspaceId,
        campaign_id: single ? null : REPORT_CAMPAIGNS[Math.floor(index / 2) % 4]!,
        contact_index: single ? null : Math.floor(index / 2),
        attempt: single ? null : 1 + (index % 2),
        contact: { phone: `+91${9_000_000_000 + index}`, name: `Customer ${index}` },
        language: agent.language,
        script_id: 'scr_seed',
        script_version: 1,
        variables: {},
        recording_enabled: false,
        started_at: startedAt.toISOString(),
        agent_id: agent.id,
      } as never,
    });
    await handleCall({
      type: 'RecordCallResult',
      data: { answered_at: connected ? at(3) : null, turns: [], escalation: null, disposition: connected ? (index % 2 === 0 ? 'interested' : 'callback') : 'not_reachable', duration_seconds: duration, ended_at: at(3 + duration) },
    });
    if (!connected) return;
    // The call's own transcript job id: the server's call-transcription process finds it done and leaves it.
    const jobId = callTranscriptJobId(callId);
    const handleJob = (command: TranscriptionJobCommand) => runtime.commands.handle(transcriptionJobDecider, transcriptionJobStream(jobId), command, context());
    const transcript = [{ speaker: 'agent', text: 'नमस्ते', start_time: 0, end_time: 1, confidence: 0.9 }];
    await handleJob({
      type: 'SubmitTranscriptionJob',
      data: {
        job_id: jobId,
        workspace_id: workspaceId,
        audio_url: null,
        transcript,
        language: agent.language,
        speakers: 2,
        features: ['transcription', 'sentiment', 'intent', 'qa_scoring'],
        qa_scorecard_id: 'qsc_seed',
        qa_scorecard: { scorecard_id: 'qsc_seed', version: 1, definition: {} },
        metadata: null,
        call_id: callId,
        disposition: 'interested',
        submitted_at: at(4 + duration),
      } as never,
    });
    await handleJob({ type: 'StartTranscriptionJob', data: { attempt: 1, started_at: at(5 + duration) } });
    // The greeting is missed on every 4th scored call; courtesy scores follow the agent (Venkat lowest).
    const greeting = index % 4 === 0 ? 0 : 10;
    const courtesy = [8, 6, 3][index % 3]!;
    const overall = Math.round(((greeting + courtesy) / 20) * 1000) / 10;
    await handleJob({
      type: 'CompleteTranscriptionJob',
      data: {
        attempt: 1,
        completed_at: at(6 + duration),
        result: {
          transcript,
          summary: null,
          sentiment: { overall: [0.6, 0, -0.6][index % 3]!, by_speaker: {} },
          intent: INTENTS[index % 3]!,
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
      } as never,
    });
    if (options.compliance === true) {
      const threatened = index % 7 === 0;
      await runtime.commands.handle(
        complianceResultDecider,
        complianceResultStream(callId),
        {
          type: 'RecordComplianceEvaluation',
          data: {
            subject_id: callId,
            call_id: callId,
            job_id: jobId,
            workspace_id: workspaceId,
            campaign_id: single ? null : REPORT_CAMPAIGNS[Math.floor(index / 2) % 4]!,
            language: agent.language,
            purpose: 'recovery',
            occurred_at: startedAt.toISOString(),
            packs: [defaultPack('in-rbi-recovery')],
            opt_out: null,
            evaluated_at: at(7 + duration),
            compliance_score: threatened ? 25 : 100,
            passed_checks: threatened ? ['recording_disclosure'] : ['recording_disclosure', 'no_threats'],
            violations: threatened
              ? [{ check: 'no_threats', description: 'Threatening language towards the customer', severity: 'critical', rule_id: 'in-rbi-recovery.no_threats', rule_pack: { id: 'in-rbi-recovery', version: '1.0.0' }, evidence: { speaker: 'agent', start_time: 0, end_time: 1, text: 'नमस्ते' } }]
              : [],
            checks: [
              { rule_id: 'in-rbi-recovery.recording_disclosure', check: 'recording_disclosure', severity: 'warning', passed: true },
              { rule_id: 'in-rbi-recovery.no_threats', check: 'no_threats', severity: 'critical', passed: !threatened },
            ],
          },
        },
        context(),
      );
    }
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: options.inFlight ?? 64 }, async () => {
      while (next < calls) await one(next++);
    }),
  );
  await runtime.projections.catchUp();
}
