/**
 * Multinomial logistic (softmax) regression over sparse features: the learner behind the call classifier
 * (docs/analysis.md, "The trained call classifier"). Written here rather than taken from npm: `ml-logistic-regression`
 * (2.0) trains one-vs-rest over dense `ml-matrix` rows without regularisation, and a call has a few hundred
 * active features out of thousands; the naive Bayes packages tokenise English only.
 *
 * Training is full-batch gradient descent with Adam steps on the mean cross-entropy plus an L2 penalty on the
 * weights (not the biases). Every sum runs in a fixed order and nothing is random, so the same examples and
 * options give bit-identical weights on every run and machine with IEEE doubles.
 */

/** One example: its active features (index → value) and its class index. */
export interface SparseExample {
  features: ReadonlyMap<number, number>;
  label: number;
}

export interface SoftmaxTrainingOptions {
  classes: number;
  /** Feature indices are below this. */
  features: number;
  /** L2 penalty on the weights. */
  l2: number;
  /** Full passes over the examples. */
  epochs: number;
  /** Adam's step size. */
  learningRate?: number;
}

/** Weights row-major by class: `weights[c * features + f]`. */
export interface SoftmaxWeights {
  classes: number;
  features: number;
  weights: Float64Array;
  bias: Float64Array;
}

const ADAM_BETA1 = 0.9;
const ADAM_BETA2 = 0.999;
const ADAM_EPSILON = 1e-8;

/** The probability of each class for one example's features. */
export function softmaxProbabilities(model: SoftmaxWeights, features: ReadonlyMap<number, number>): number[] {
  const logits = Array.from(model.bias);
  for (const [feature, value] of features) {
    if (feature < 0 || feature >= model.features) continue;
    for (let c = 0; c < model.classes; c += 1) logits[c]! += model.weights[c * model.features + feature]! * value;
  }
  const top = Math.max(...logits);
  const exps = logits.map((logit) => Math.exp(logit - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

export function trainSoftmax(examples: readonly SparseExample[], options: SoftmaxTrainingOptions): SoftmaxWeights {
  const { classes, features, l2, epochs } = options;
  const learningRate = options.learningRate ?? 0.05;
  if (examples.length === 0) throw new Error('no training examples');
  for (const example of examples) {
    if (!Number.isInteger(example.label) || example.label < 0 || example.label >= classes) {
      throw new Error(`label ${example.label} is not a class index below ${classes}`);
    }
  }
  const model: SoftmaxWeights = { classes, features, weights: new Float64Array(classes * features), bias: new Float64Array(classes) };
  const gradient = new Float64Array(classes * features);
  const biasGradient = new Float64Array(classes);
  const moment = new Float64Array(classes * features);
  const square = new Float64Array(classes * features);
  const biasMoment = new Float64Array(classes);
  const biasSquare = new Float64Array(classes);
  const scale = 1 / examples.length;
  for (let step = 1; step <= epochs; step += 1) {
    gradient.fill(0);
    biasGradient.fill(0);
    for (const example of examples) {
      const probabilities = softmaxProbabilities(model, example.features);
      for (let c = 0; c < classes; c += 1) {
        const error = (probabilities[c]! - (c === example.label ? 1 : 0)) * scale;
        biasGradient[c]! += error;
        if (error === 0) continue;
        const row = c * features;
        for (const [feature, value] of example.features) {
          if (feature >= 0 && feature < features) gradient[row + feature]! += error * value;
        }
      }
    }
    const correction1 = 1 - ADAM_BETA1 ** step;
    const correction2 = 1 - ADAM_BETA2 ** step;
    for (let i = 0; i < gradient.length; i += 1) {
      const g = gradient[i]! + l2 * model.weights[i]!;
      moment[i] = ADAM_BETA1 * moment[i]! + (1 - ADAM_BETA1) * g;
      square[i] = ADAM_BETA2 * square[i]! + (1 - ADAM_BETA2) * g * g;
      model.weights[i]! -= (learningRate * (moment[i]! / correction1)) / (Math.sqrt(square[i]! / correction2) + ADAM_EPSILON);
    }
    for (let c = 0; c < classes; c += 1) {
      const g = biasGradient[c]!;
      biasMoment[c] = ADAM_BETA1 * biasMoment[c]! + (1 - ADAM_BETA1) * g;
      biasSquare[c] = ADAM_BETA2 * biasSquare[c]! + (1 - ADAM_BETA2) * g * g;
      model.bias[c]! -= (learningRate * (biasMoment[c]! / correction1)) / (Math.sqrt(biasSquare[c]! / correction2) + ADAM_EPSILON);
    }
  }
  return model;
}
