/**
 * The trained call classifier as a file (infra/analysis/classifier/call-classifier.json, written by
 * `npm run train:classifier`) and as the object the analyzer uses: two softmax models over the features of
 * call-features.ts, one for the customer's sentiment sign and one for the intent, each with the probability at
 * which it overrides the rules (chosen by cross-validation on the training data; null: never).
 *
 * The file is bounded (MAX_MODEL_BYTES) and checked before use: a model that does not match its own shape is
 * refused rather than guessed at.
 */
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { trainedModelHeader } from '../trained-model-header.ts';
import { INTENT_LABELS } from '../intent-labels.ts';
import type { SoftmaxWeights } from './softmax-regression.ts';

export const CALL_CLASSIFIER_FORMAT = 'call-classifier/1';
/** The committed model's size limit; the trainer drops the rarest features until the file fits. */
export const MAX_MODEL_BYTES = 2 * 1024 * 1024;
export const DEFAULT_MODEL_PATH = fileURLToPath(new URL('./call-classifier.json', import.meta.url));

/** The sentiment model's classes, in order: the signs -1, 0, 1. */
export const SENTIMENT_CLASSES = ['negative', 'neutral', 'positive'] as const;
/** The intent model's classes, in order: no intent, then every label. */
export const INTENT_CLASSES = ['none', ...INTENT_LABELS] as const;

const taskSchema = z.object({
  classes: z.array(z.string()).min(2),
  bias: z.array(z.number()),
  /** One row per class, one weight per feature. */
  weights: z.array(z.array(z.number())),
  /** The model's answer replaces the rules' when its probability is at least this; null: the rules always answer. */
  override_at: z.number().min(0).max(1).nullable(),
});

export const callClassifierFileSchema = z.object({
  format: z.literal(CALL_CLASSIFIER_FORMAT),
  ...trainedModelHeader,
  sentiment: taskSchema,
  intent: taskSchema,
});

export type CallClassifierFile = z.infer<typeof callClassifierFileSchema>;

export interface TaskModel {
  classes: readonly string[];
  weights: SoftmaxWeights;
  overrideAt: number | null;
}

export interface CallClassifier {
  /** Feature name → index. */
  vocabulary: ReadonlyMap<string, number>;
  sentiment: TaskModel;
  intent: TaskModel;
}

function taskModel(name: string, task: CallClassifierFile['sentiment'], features: number, expected: readonly string[]): TaskModel {
  if (task.classes.join() !== expected.join()) throw new Error(`call classifier: ${name} classes ${task.classes.join()} are not ${expected.join()}`);
  if (task.bias.length !== task.classes.length || task.weights.length !== task.classes.length) {
    throw new Error(`call classifier: ${name} has ${task.weights.length} weight rows and ${task.bias.length} biases for ${task.classes.length} classes`);
  }
  const weights = new Float64Array(task.classes.length * features);
  task.weights.forEach((row, c) => {
    if (row.length !== features) throw new Error(`call classifier: ${name} row ${c} has ${row.length} weights for ${features} features`);
    weights.set(row, c * features);
  });
  return {
    classes: task.classes,
    weights: { classes: task.classes.length, features, weights, bias: Float64Array.from(task.bias) },
    overrideAt: task.override_at,
  };
}

export function callClassifierFromFile(file: CallClassifierFile): CallClassifier {
  const vocabulary = new Map(file.features.map((name, index) => [name, index]));
  if (vocabulary.size !== file.features.length) throw new Error('call classifier: a feature name repeats');
  return {
    vocabulary,
    sentiment: taskModel('sentiment', file.sentiment, file.features.length, SENTIMENT_CLASSES),
    intent: taskModel('intent', file.intent, file.features.length, INTENT_CLASSES),
  };
}

/** Reads and checks the model file; throws when it is missing, too large or malformed. */
export function loadCallClassifier(path: string = DEFAULT_MODEL_PATH): CallClassifier {
  const bytes = statSync(path).size;
  if (bytes > MAX_MODEL_BYTES) throw new Error(`call classifier: ${path} has ${bytes} bytes, over the limit of ${MAX_MODEL_BYTES}`);
  return callClassifierFromFile(callClassifierFileSchema.parse(JSON.parse(readFileSync(path, 'utf8'))));
}
