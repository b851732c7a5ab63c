/**
 * Reading a pack's parameters. The platform validates them against the pack's schema when the workspace saves its
 * settings; rules still fall back to the documented default when one is missing or malformed, because a re-audit
 * replays parameters saved under older schemas.
 */
import type { RuleParameters } from './rule.ts';

export function numberParameter(parameters: RuleParameters, name: string, fallback: number): number {
  const value = parameters[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function choiceParameter<T extends string>(parameters: RuleParameters, name: string, choices: readonly T[], fallback: T): T {
  const value = parameters[name];
  return typeof value === 'string' && (choices as readonly string[]).includes(value) ? (value as T) : fallback;
}
