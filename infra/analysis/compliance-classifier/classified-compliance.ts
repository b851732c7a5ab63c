/**
 * The rules' verdicts with the compliance classifier on top (COMPLIANCE_CLASSIFIER=on): for each check the model
 * covers, a verdict the rules passed turns to failed when the model's probability for some window of the right
 * side's turns reaches the check's `flag_at`; the highest-scoring window's segment is the evidence. An opt-out the
 * rules missed is found the same way on the customer's turns. The model never clears what the rules flagged
 * (rules OR model): the rules were tuned to precision 1.00 on every slice, the model adds recall.
 *
 * The combination keeps the rules' contract: the same verdicts (rule id, check, severity, passed, findings with
 * evidence), so the stored results, the score, the webhook and re-audits need no change.
 */
import type { RuleVerdict } from '../../../domain/compliance/evaluation.ts';
import type { Evidence, PostCallInput } from '../../../domain/compliance/rule.ts';
import { agentSegments, customerSegments } from '../../../domain/shared/text/speaker-roles.ts';
import type { TranscriptSegment } from '../../../domain/transcription-job.ts';
import { SIDE_OF, violationProbability, type ClassifiedCheck, type ComplianceClassifier } from './compliance-classifier-model.ts';
import { conceptFeatures, MAX_SIDE_CHARACTERS, windowFeatures, windowsOf } from './turn-features.ts';

export interface WindowScore {
  probability: number;
  segment: TranscriptSegment;
}

const DESCRIPTIONS: Readonly<Record<ClassifiedCheck, string>> = {
  'in-rbi-recovery.no_threats': 'The trained classifier reads a threat, abuse or humiliation in this turn',
  'in-rbi-recovery.no_false_claims': 'The trained classifier reads a false or misleading claim (police, arrest, legal or official action) in this turn',
  'in-trai.no_promotional_content_on_service_call': 'The trained classifier reads promotional content in this turn of a non-promotional call',
  opt_out: 'The trained classifier reads a request not to be called again',
};

interface WindowFeatures {
  segment: TranscriptSegment;
  features: ReadonlyMap<string, number>;
}

/** Each window of one side's turns with what the models read of it. */
function sideWindows(classifier: ComplianceClassifier, side: 'agent' | 'customer', segments: readonly TranscriptSegment[], language: string): WindowFeatures[] {
  const accept = (name: string) => classifier.vocabulary.has(name);
  const concepts = new Map<TranscriptSegment, string[]>();
  const windows: WindowFeatures[] = [];
  for (const window of windowsOf(side === 'agent' ? agentSegments(segments) : customerSegments(segments), language)) {
    let segmentConcepts = concepts.get(window.segment);
    if (segmentConcepts === undefined) {
      // The concept classes are read only when the model was trained with them (feature set "text+concepts").
      segmentConcepts = classifier.readsConcepts ? conceptFeatures(window.segment.text.slice(0, MAX_SIDE_CHARACTERS), language) : [];
      concepts.set(window.segment, segmentConcepts);
    }
    windows.push({ segment: window.segment, features: windowFeatures(window.clauses, language, accept, segmentConcepts) });
  }
  return windows;
}

/**
 * The windows of one call as its checks read them, each side built on first use: the three agent-side checks read
 * the same windows, built once per call rather than once per check.
 */
function callWindows(classifier: ComplianceClassifier, input: Pick<PostCallInput, 'segments' | 'language'>) {
  const built = new Map<'agent' | 'customer', WindowFeatures[]>();
  return (side: 'agent' | 'customer'): WindowFeatures[] => {
    let windows = built.get(side);
    if (!windows) built.set(side, (windows = sideWindows(classifier, side, input.segments, input.language)));
    return windows;
  };
}

type CallWindows = ReturnType<typeof callWindows>;

/** The highest-scoring window of the check's side, or null when the side said nothing (or the check has no model). */
export function topWindow(classifier: ComplianceClassifier, check: ClassifiedCheck, segments: readonly TranscriptSegment[], language: string, windows: CallWindows = callWindows(classifier, { segments, language })): WindowScore | null {
  const model = classifier.checks.get(check);
  if (!model) return null;
  let best: WindowScore | null = null;
  for (const { segment, features } of windows(SIDE_OF[check])) {
    const probability = violationProbability(model, classifier.vocabulary, features);
    if (best === null || probability > best.probability) best = { probability, segment };
  }
  return best;
}

function evidenceOf(segment: TranscriptSegment): Evidence {
  return { speaker: segment.speaker, start_time: segment.start_time, end_time: segment.end_time, text: segment.text };
}

/** The window that makes the model flag the check, or null (below its threshold, or the check is off). */
export function classifierFinding(classifier: ComplianceClassifier, check: ClassifiedCheck, input: PostCallInput, windows: CallWindows = callWindows(classifier, input)): { description: string; evidence: Evidence } | null {
  const flagAt = classifier.checks.get(check)?.flagAt ?? null;
  if (flagAt === null) return null;
  const top = topWindow(classifier, check, input.segments, input.language, windows);
  if (top === null || top.probability < flagAt) return null;
  return { description: `${DESCRIPTIONS[check]} (probability ${top.probability.toFixed(2)})`, evidence: evidenceOf(top.segment) };
}

/** The rules' verdicts, with the checks the rules passed and the model flags turned to failed. */
export function withClassifier(verdicts: readonly RuleVerdict[], input: PostCallInput, classifier: ComplianceClassifier): RuleVerdict[] {
  const windows = callWindows(classifier, input);
  return verdicts.map((verdict) => {
    if (!verdict.passed || !classifier.checks.has(verdict.rule_id as ClassifiedCheck)) return verdict;
    const finding = classifierFinding(classifier, verdict.rule_id as ClassifiedCheck, input, windows);
    return finding === null ? verdict : { ...verdict, passed: false, findings: [finding] };
  });
}

/** The rules' opt-out, or the model's when the rules found none. */
export function optOutWithClassifier(rules: Evidence | null, input: PostCallInput, classifier: ComplianceClassifier): Evidence | null {
  return rules ?? classifierFinding(classifier, 'opt_out', input)?.evidence ?? null;
}
