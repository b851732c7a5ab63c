import { z } from 'zod';

/**
 * What every committed trained model file says about itself, beside its weights (the call classifier's and the
 * compliance classifier's): how it was trained, on what, with which options, and its feature names.
 */
export const trainedModelHeader = {
  description: z.string(),
  trained_on: z.array(z.string()),
  examples: z.number().int(),
  options: z.record(z.string(), z.unknown()),
  cross_validation: z.unknown(),
  features: z.array(z.string()),
};
