/**
 * The trained compliance classifier as a file (compliance-classifier.json, written by
 * `npm run train:compliance-classifier`) and as the object the evaluation uses: one logistic model per check over
 * the window features of turn-features.ts, each with the probability at which it flags a call the rules passed
 * (chosen by grouped cross-validation on the training data; null: never). docs/compliance-post-call.md, "Round 6".
 *
 * The file is bounded (MAX_MODEL_BYTES) and checked before use: a model that does not match its own shape is
 * refused rather than guessed at.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { trainedModelHeader } from '../trained-model-header.ts';

export const COMPLIANCE_CLASSIFIER_FORMAT = 'compliance-classifier/1';
/** The committed model's size limit. */
export const MAX_MODEL_BYTES = 2 * 1024 * 1024;
export const DEFAULT_COMPLIANCE_MODEL_PATH = fileURLToPath(new URL('./compliance-classifier.json', import.meta.url));

/** The checks the classifier covers: the rule ids it may turn to failed, and the opt-out request. */
export const CLASSIFIED_CHECKS = [
  'in-rbi-recovery.no_threats',
  'in-rbi-recovery.no_false_claims',
  'in-trai.no_promotional_content_on_service_call',
  'opt_out',
] as const;
export type ClassifiedCheck = (typeof CLASSIFIED_CHECKS)[number];

/** Whose turns a check reads: violations are the agent's, an opt-out is the customer's. */
export const SIDE_OF: Readonly<Record<ClassifiedCheck, 'agent' | 'customer'>> = {
  'in-rbi-recovery.no_threats': 'agent',
  'in-rbi-recovery.no_false_claims': 'agent',
  'in-trai.no_promotional_content_on_service_call': 'agent',
  opt_out: 'customer',
};

const checkSchema = z.object({
  bias: z.number(),
  /** One weight per feature (the log-odds it adds). */
  weights: z.array(z.number()),
  /** The model flags the check when a window's probability is at least this; null: never (the rules alone). */
  flag_at: z.number().min(0).max(1).nullable(),
});

export const complianceClassifierFileSchema = z.object({
  format: z.literal(COMPLIANCE_CLASSIFIER_FORMAT),
  ...trainedModelHeader,
  checks: z.record(z.string(), checkSchema),
});

export type ComplianceClassifierFile = z.infer<typeof complianceClassifierFileSchema>;

export interface CheckModel {
  bias: number;
  weights: Float64Array;
  flagAt: number | null;
}

export interface ComplianceClassifier {
  /**
   * Which model this is, as a compliance result records it: the file's format and the first 12 hex digits of the
   * SHA-256 of its bytes (`compliance-classifier/1@3f9a0c21b7e4`). A retrained model is another id, so a result
   * says which model judged it, and a re-audit which model it judged with.
   */
  id: string;
  /** Feature name → index. */
  vocabulary: ReadonlyMap<string, number>;
  checks: ReadonlyMap<ClassifiedCheck, CheckModel>;
  /** Whether the model reads the rules' concept classes (trained with the feature set "text+concepts"). */
  readsConcepts: boolean;
}

/** The probability of a violation for one window's features. */
export function violationProbability(model: CheckModel, vocabulary: ReadonlyMap<string, number>, features: ReadonlyMap<string, number>): number {
  let logit = model.bias;
  for (const [name, value] of features) {
    const at = vocabulary.get(name);
    if (at !== undefined) logit += model.weights[at]! * value;
  }
  return 1 / (1 + Math.exp(-logit));
}

/** The id of a model file's bytes (ComplianceClassifier.id). */
export function complianceClassifierId(text: string): string {
  return `${COMPLIANCE_CLASSIFIER_FORMAT}@${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
}

/** `text`: the file's content, for the id (ComplianceClassifier.id). */
export function complianceClassifierFromFile(file: ComplianceClassifierFile, text: string): ComplianceClassifier {
  const vocabulary = new Map(file.features.map((name, index) => [name, index]));
  if (vocabulary.size !== file.features.length) throw new Error('compliance classifier: a feature name repeats');
  const checks = new Map<ClassifiedCheck, CheckModel>();
  for (const [check, model] of Object.entries(file.checks)) {
    if (!(CLASSIFIED_CHECKS as readonly string[]).includes(check)) throw new Error(`compliance classifier: unknown check ${check}`);
    if (model.weights.length !== file.features.length) {
      throw new Error(`compliance classifier: ${check} has ${model.weights.length} weights for ${file.features.length} features`);
    }
    checks.set(check as ClassifiedCheck, { bias: model.bias, weights: Float64Array.from(model.weights), flagAt: model.flag_at });
  }
  return { id: complianceClassifierId(text), vocabulary, checks, readsConcepts: file.features.some((name) => name.startsWith('k:')) };
}

/** Reads and checks the model file; throws when it is missing, too large or malformed. */
export function loadComplianceClassifier(path: string = DEFAULT_COMPLIANCE_MODEL_PATH): ComplianceClassifier {
  const bytes = statSync(path).size;
  if (bytes > MAX_MODEL_BYTES) throw new Error(`compliance classifier: ${path} has ${bytes} bytes, over the limit of ${MAX_MODEL_BYTES}`);
  const text = readFileSync(path, 'utf8');
  return complianceClassifierFromFile(complianceClassifierFileSchema.parse(JSON.parse(text)), text);
}
