// Groups stretches of speech into speakers by their median pitch (log F0). k-means finds one typical pitch per
// speaker; a Viterbi pass then prefers keeping the current speaker (turn-taking: people speak in turns of
// several stretches, and one stretch with an unusual pitch is more likely a rising question than a new
// speaker). Stretches without a trustworthy pitch take the speaker of their neighbours.

export interface PitchedStretch {
  start: number;
  end: number;
  /** ln(F0 in Hz), or null when the stretch had too few voiced frames. */
  logPitch: number | null;
  /** How much this stretch counts (voiced frames). */
  weight: number;
  /** True when a pause precedes this stretch: turns change more readily across pauses. */
  afterPause: boolean;
}

export interface SpeakerClustering {
  /** Cluster index per stretch, numbered in order of first appearance (0 spoke first). */
  labels: number[];
  /** Smallest distance between neighbouring cluster centres, in semitones. */
  gapSemitones: number;
  /** That distance over the pooled spread within clusters. */
  gapOverSpread: number;
}

const SWITCH_COST_WITHIN_SPEECH = 3;
const SWITCH_COST_AFTER_PAUSE = 1;

export function clusterSpeakers(stretches: PitchedStretch[], speakerCount: number): SpeakerClustering {
  const pitched = stretches.filter((stretch) => stretch.logPitch !== null);
  if (speakerCount <= 1 || pitched.length < speakerCount) {
    return { labels: stretches.map(() => 0), gapSemitones: 0, gapOverSpread: 0 };
  }
  const centres = kMeans1d(pitched.map((stretch) => [stretch.logPitch!, stretch.weight] as const), speakerCount);
  const spread = pooledSpread(pitched, centres);
  const labels = smoothTurns(stretches, centres, spread);
  const gap = minimumGap(centres);
  return {
    labels: renumberByFirstAppearance(labels),
    gapSemitones: (12 * gap) / Math.LN2,
    gapOverSpread: gap / spread,
  };
}

/** Weighted 1-D k-means, started from evenly spaced quantiles so the result is deterministic. */
function kMeans1d(points: ReadonlyArray<readonly [value: number, weight: number]>, k: number): number[] {
  const sortedValues = points.map(([value]) => value).sort((a, b) => a - b);
  let centres = Array.from({ length: k }, (_, index) => sortedValues[Math.floor(((index + 0.5) / k) * sortedValues.length)]!);
  for (let iteration = 0; iteration < 100; iteration++) {
    const sums = new Array<number>(k).fill(0);
    const weights = new Array<number>(k).fill(0);
    for (const [value, weight] of points) {
      const nearest = nearestCentre(centres, value);
      sums[nearest]! += value * weight;
      weights[nearest]! += weight;
    }
    const next = centres.map((centre, index) => (weights[index]! > 0 ? sums[index]! / weights[index]! : centre));
    const moved = next.some((centre, index) => Math.abs(centre - centres[index]!) > 1e-6);
    centres = next;
    if (!moved) break;
  }
  return centres.sort((a, b) => a - b);
}

function nearestCentre(centres: number[], value: number): number {
  let best = 0;
  for (let index = 1; index < centres.length; index++) {
    if (Math.abs(value - centres[index]!) < Math.abs(value - centres[best]!)) best = index;
  }
  return best;
}

/** Weighted standard deviation of stretches around their nearest centre, floored at half a semitone. */
function pooledSpread(pitched: PitchedStretch[], centres: number[]): number {
  let sumSquares = 0;
  let totalWeight = 0;
  for (const stretch of pitched) {
    const distance = stretch.logPitch! - centres[nearestCentre(centres, stretch.logPitch!)]!;
    sumSquares += distance * distance * stretch.weight;
    totalWeight += stretch.weight;
  }
  const halfSemitone = Math.log(2) / 24;
  return Math.max(halfSemitone, Math.sqrt(sumSquares / Math.max(1e-9, totalWeight)));
}

function minimumGap(sortedCentres: number[]): number {
  let gap = Infinity;
  for (let index = 1; index < sortedCentres.length; index++) gap = Math.min(gap, sortedCentres[index]! - sortedCentres[index - 1]!);
  return Number.isFinite(gap) ? gap : 0;
}

/** Viterbi over the stretches: cost = squared distance to the speaker's pitch in spreads + cost of switching. */
function smoothTurns(stretches: PitchedStretch[], centres: number[], spread: number): number[] {
  const k = centres.length;
  const count = stretches.length;
  if (count === 0) return [];
  const cost = new Float64Array(k);
  const backpointers = new Int32Array(count * k);
  const emission = (stretch: PitchedStretch, speaker: number) =>
    stretch.logPitch === null ? 0 : 0.5 * ((stretch.logPitch - centres[speaker]!) / spread) ** 2;
  for (let speaker = 0; speaker < k; speaker++) cost[speaker] = emission(stretches[0]!, speaker);
  for (let index = 1; index < count; index++) {
    const stretch = stretches[index]!;
    const switchCost = stretch.afterPause ? SWITCH_COST_AFTER_PAUSE : SWITCH_COST_WITHIN_SPEECH;
    const previous = Float64Array.from(cost);
    for (let speaker = 0; speaker < k; speaker++) {
      let bestPrevious = speaker;
      let bestCost = previous[speaker]!;
      for (let from = 0; from < k; from++) {
        if (from !== speaker && previous[from]! + switchCost < bestCost) {
          bestCost = previous[from]! + switchCost;
          bestPrevious = from;
        }
      }
      cost[speaker] = bestCost + emission(stretch, speaker);
      backpointers[index * k + speaker] = bestPrevious;
    }
  }
  const labels = new Array<number>(count);
  let current = 0;
  for (let speaker = 1; speaker < k; speaker++) if (cost[speaker]! < cost[current]!) current = speaker;
  for (let index = count - 1; index >= 0; index--) {
    labels[index] = current;
    current = backpointers[index * k + current]!;
  }
  return labels;
}

function renumberByFirstAppearance(labels: number[]): number[] {
  const order = new Map<number, number>();
  for (const label of labels) if (!order.has(label)) order.set(label, order.size);
  return labels.map((label) => order.get(label)!);
}
