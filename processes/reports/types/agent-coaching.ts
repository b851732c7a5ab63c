import { z } from 'zod';
import { callAnalytics } from '../../../projections/call-analytics.ts';
import { qaSums } from '../../../projections/qa-analytics.ts';
import { listQaScorecards } from '../../../projections/qa-scorecards.ts';
import { lowestScoringCalls, qaGroups } from '../../../projections/report-queries.ts';
import { averageOf, rateOf, round, type Cell, type ReportSource, type ReportTypeDefinition } from '../report-type.ts';
import { recommendedFocus } from './coaching-focus.ts';
import { nameLookup } from './names.ts';

/** Lowest-scoring parameters per agent, and example calls per parameter. */
export const LOWEST_PARAMETERS = 3;
export const EXAMPLE_CALLS = 3;

export const AgentCoachingDataSchema = z
  .strictObject({
    agents: z.array(
      z.strictObject({
        agent_id: z.string(),
        agent_name: z.string().nullable(),
        calls_handled: z.number().int().min(0).meta({ description: 'Calls of the agent that started in the period.' }),
        connected_calls: z.number().int().min(0),
        calls_evaluated: z.number().int().min(0),
        avg_qa_score: z.number().nullable(),
        pass_rate: z.number().min(0).max(1),
        lowest_parameters: z.array(
          z.strictObject({
            parameter: z.string(),
            avg_score: z.number(),
            max_score: z.number(),
            score_rate: z.number().min(0).max(1).meta({ description: 'avg_score / max_score.' }),
            pass_rate: z.number().min(0).max(1),
            example_calls: z.array(z.strictObject({ call_id: z.string(), score: z.number(), max_score: z.number(), url: z.string().meta({ description: 'GET /v1/calls/{id} of the call.' }) })),
          }),
        ),
        recommended_focus: z.strictObject({ parameter: z.string(), reason: z.string(), advice: z.string() }).nullable().meta({ description: 'Null when every parameter averages at least 80% of its maximum (docs/reports.md).' }),
      }),
    ),
  })
  .meta({ id: 'AgentCoachingReportData' });

export type AgentCoachingData = z.infer<typeof AgentCoachingDataSchema>;

/** Parameter name → check type, from the workspace's scorecards (parameters aggregate by name across scorecards). */
function checkTypes(source: ReportSource): Map<string, string> {
  const types = new Map<string, string>();
  for (let offset = 0; ; offset += 100) {
    const page = listQaScorecards(source.db, source.workspaceId, 100, offset);
    for (const document of page.documents) {
      const scorecard = JSON.parse(document) as { parameters: Array<{ name: string; check: { type: string } }> };
      for (const parameter of scorecard.parameters) if (!types.has(parameter.name)) types.set(parameter.name, parameter.check.type);
    }
    if (offset + 100 >= page.total) return types;
  }
}

function collect(source: ReportSource): AgentCoachingData {
  const { db, workspaceId, range, filters } = source;
  const names = nameLookup(db, workspaceId);
  const calls = new Map((callAnalytics(db, workspaceId, range, { agent_id: filters.agent_id }, 'agent').groups ?? []).map(({ group, totals }) => [group, totals]));
  const scored = qaGroups(db, workspaceId, range, { agent_id: filters.agent_id, scorecard_id: filters.scorecard_id }, 'agent');
  const agentIds = [...new Set([...calls.keys(), ...scored.map((row) => row.group)])].filter((id) => id !== '').sort();
  const types = checkTypes(source);
  return {
    agents: agentIds.map((agentId) => {
      const handled = calls.get(agentId);
      const qa = qaSums(db, workspaceId, range, { agent_id: agentId, scorecard_id: filters.scorecard_id });
      const lowest = qa.parameters
        .map((parameter) => {
          const avg = averageOf(parameter.score_sum, parameter.evaluated) ?? 0;
          return { parameter: parameter.name, avg_score: avg, max_score: parameter.max_score, score_rate: parameter.max_score > 0 ? Math.min(1, round(avg / parameter.max_score, 4)) : 0, pass_rate: rateOf(parameter.passed, parameter.evaluated) };
        })
        .sort((a, b) => a.score_rate - b.score_rate || a.parameter.localeCompare(b.parameter))
        .slice(0, LOWEST_PARAMETERS)
        .map((parameter) => ({
          ...parameter,
          example_calls: lowestScoringCalls(db, workspaceId, range, agentId, parameter.parameter, filters.scorecard_id, EXAMPLE_CALLS).map((call) => ({ ...call, url: source.callUrl(call.call_id) })),
        }));
      return {
        agent_id: agentId,
        agent_name: names.agent(agentId),
        calls_handled: handled?.total_calls ?? 0,
        connected_calls: handled?.connected_calls ?? 0,
        calls_evaluated: qa.evaluated,
        avg_qa_score: averageOf(qa.score_sum, qa.evaluated),
        pass_rate: rateOf(qa.passed, qa.evaluated),
        lowest_parameters: lowest,
        recommended_focus: recommendedFocus(lowest.map((parameter) => ({ ...parameter, check_type: types.get(parameter.parameter) ?? null }))),
      };
    }),
  };
}

export const agentCoachingReport: ReportTypeDefinition<AgentCoachingData> = {
  type: 'agent_coaching',
  title: 'Agent coaching',
  description: 'Per agent: calls handled, average QA score, the three lowest-scoring parameters with example calls, and a recommended focus.',
  filters: ['agent_id', 'scorecard_id'],
  schema: AgentCoachingDataSchema,
  collect,
  layout(data) {
    const parameterRows: Array<Record<string, Cell>> = data.agents.flatMap((agent) =>
      agent.lowest_parameters.map((parameter, index) => ({
        agent_id: agent.agent_id,
        agent_name: agent.agent_name,
        rank: index + 1,
        parameter: parameter.parameter,
        avg_score: parameter.avg_score,
        max_score: parameter.max_score,
        pass_rate: parameter.pass_rate,
        example_calls: parameter.example_calls.map((call) => call.call_id).join(' '),
      })),
    );
    return {
      summary: [
        { label: 'Agents', value: data.agents.length },
        { label: 'Calls handled', value: data.agents.reduce((sum, agent) => sum + agent.calls_handled, 0) },
        { label: 'Agents with a focus', value: data.agents.filter((agent) => agent.recommended_focus !== null).length },
      ],
      charts: [
        { title: 'Average QA score by agent', mark: 'bar', xTitle: 'Agent', yTitle: 'Average QA score', points: data.agents.map((agent) => ({ x: agent.agent_id, y: agent.avg_qa_score ?? 0 })) },
      ],
      tables: [
        {
          name: 'agents',
          title: 'Agents',
          columns: [
            { key: 'agent_id', title: 'Agent ID' },
            { key: 'agent_name', title: 'Agent' },
            { key: 'calls_handled', title: 'Calls', numeric: true },
            { key: 'calls_evaluated', title: 'Evaluated', numeric: true },
            { key: 'avg_qa_score', title: 'Avg QA', numeric: true },
            { key: 'focus', title: 'Recommended focus' },
            { key: 'advice', title: 'Advice' },
          ],
          rows: data.agents.map((agent) => ({
            agent_id: agent.agent_id,
            agent_name: agent.agent_name,
            calls_handled: agent.calls_handled,
            calls_evaluated: agent.calls_evaluated,
            avg_qa_score: agent.avg_qa_score,
            focus: agent.recommended_focus?.parameter ?? null,
            advice: agent.recommended_focus?.advice ?? null,
          })),
        },
        {
          name: 'lowest_parameters',
          title: 'Lowest-scoring parameters',
          columns: [
            { key: 'agent_id', title: 'Agent ID' },
            { key: 'agent_name', title: 'Agent' },
            { key: 'rank', title: 'Rank', numeric: true },
            { key: 'parameter', title: 'Parameter' },
            { key: 'avg_score', title: 'Avg score', numeric: true },
            { key: 'max_score', title: 'Max', numeric: true },
            { key: 'pass_rate', title: 'Pass rate', numeric: true },
            { key: 'example_calls', title: 'Example calls' },
          ],
          rows: parameterRows,
        },
      ],
    };
  },
};
