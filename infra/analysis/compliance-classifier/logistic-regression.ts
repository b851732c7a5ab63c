/**
 * Weighted binary logistic regression over sparse features: the learner behind the compliance classifier. The
 * call classifier's softmax (../classifier/softmax-regression.ts) with two classes gives the same model at twice the
 * cost, and has no example weights; a violation is one window among many clean ones, so its examples weigh more.
 *
 * Full-batch gradient descent with Adam steps on the weighted mean log-loss plus an L2 penalty on the weights (not
 * the bias). Every sum runs in a fixed order and nothing is random, so the same examples and options give
 * bit-identical weights on every run and machine with IEEE doubles.
 */

export interface WeightedExample {
  /** Active features: index → value. */
  features: ReadonlyMap<number, number>;
  label: 0 | 1;
  weight: number;
}

export interface LogisticTrainingOptions {
  /** Feature indices are below this. */
  features: number;
  l2: number;
  epochs: number;
  learningRate: number;
}

export interface LogisticWeights {
  bias: number;
  weights: Float64Array;
}

const ADAM_BETA1 = 0.9;
const ADAM_BETA2 = 0.999;
const ADAM_EPSILON = 1e-8;

export function logisticProbability(model: LogisticWeights, features: ReadonlyMap<number, number>): number {
  let logit = model.bias;
  for (const [feature, value] of features) {
    if (feature >= 0 && feature < model.weights.length) logit += model.weights[feature]! * value;
  }
  return 1 / (1 + Math.exp(-logit));
}

export function trainLogistic(examples: readonly WeightedExample[], options: LogisticTrainingOptions): LogisticWeights {
  const { features, l2, epochs, learningRate } = options;
  if (examples.length === 0) throw new Error('no training examples');
  const totalWeight = examples.reduce((sum, example) => sum + example.weight, 0);
  if (!(totalWeight > 0)) throw new Error('the examples weigh nothing');
  const model: LogisticWeights = { bias: 0, weights: new Float64Array(features) };
  const gradient = new Float64Array(features);
  const moment = new Float64Array(features);
  const square = new Float64Array(features);
  let biasMoment = 0;
  let biasSquare = 0;
  for (let step = 1; step <= epochs; step += 1) {
    gradient.fill(0);
    let biasGradient = 0;
    for (const example of examples) {
      const error = ((logisticProbability(model, example.features) - example.label) * example.weight) / totalWeight;
      biasGradient += error;
      if (error === 0) continue;
      for (const [feature, value] of example.features) {
        if (feature >= 0 && feature < features) gradient[feature]! += error * value;
      }
    }
    const correction1 = 1 - ADAM_BETA1 ** step;
    const correction2 = 1 - ADAM_BETA2 ** step;
    for (let i = 0; i < features; i += 1) {
      const g = gradient[i]! + l2 * model.weights[i]!;
      moment[i] = ADAM_BETA1 * moment[i]! + (1 - ADAM_BETA1) * g;
      square[i] = ADAM_BETA2 * square[i]! + (1 - ADAM_BETA2) * g * g;
      model.weights[i]! -= (learningRate * (moment[i]! / correction1)) / (Math.sqrt(square[i]! / correction2) + ADAM_EPSILON);
    }
    biasMoment = ADAM_BETA1 * biasMoment + (1 - ADAM_BETA1) * biasGradient;
    biasSquare = ADAM_BETA2 * biasSquare + (1 - ADAM_BETA2) * biasGradient * biasGradient;
    model.bias -= (learningRate * (biasMoment / correction1)) / (Math.sqrt(biasSquare / correction2) + ADAM_EPSILON);
  }
  return model;
}
