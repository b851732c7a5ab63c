/**
 * The recommended focus of agent_coaching (docs/reports.md, "agent_coaching"): a pure rule over an agent's
 * lowest-scoring parameters. The weakest parameter (lowest average score as a share of its maximum) becomes the
 * focus when it is below FOCUS_BELOW; the advice follows the kind of check that scores it.
 */
export const FOCUS_BELOW = 0.8;

export interface ParameterStanding {
  parameter: string;
  /** avg_score / max_score, 0 to 1. */
  score_rate: number;
  pass_rate: number;
  /** The check type of the scorecard parameter of that name (agent_says, ...), when a scorecard has it. */
  check_type: string | null;
}

export interface CoachingFocus {
  parameter: string;
  reason: string;
  advice: string;
}

const ADVICE: Record<string, (parameter: string) => string> = {
  agent_says: (parameter) => `Say what "${parameter}" listens for (its phrases, in time) on every call; replay the example calls together.`,
  agent_avoids: (parameter) => `Avoid the phrases "${parameter}" penalises; rehearse alternatives for the situations in the example calls.`,
  customer_says: (parameter) => `Ask the question that gets the customer's answer "${parameter}" looks for, and confirm it back.`,
  talk_ratio: () => 'Talk less, listen more: ask open questions and let the customer finish.',
  max_silence: () => 'Avoid long silences: tell the customer what you are doing while you look things up.',
};

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

export function recommendedFocus(lowest: readonly ParameterStanding[]): CoachingFocus | null {
  const weakest = [...lowest].sort((a, b) => a.score_rate - b.score_rate || a.parameter.localeCompare(b.parameter))[0];
  if (!weakest || weakest.score_rate >= FOCUS_BELOW) return null;
  const advice = ADVICE[weakest.check_type ?? '']?.(weakest.parameter) ?? `Review the example calls for "${weakest.parameter}" with the agent.`;
  return {
    parameter: weakest.parameter,
    reason: `Lowest-scoring parameter: ${percent(weakest.score_rate)} of its maximum on average, passed in ${percent(weakest.pass_rate)} of evaluated calls.`,
    advice,
  };
}
