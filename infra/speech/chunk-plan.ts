// Long audio is recognised in pieces so that pieces can run in parallel, a hosted API's upload limit is
// respected, and an abort stops work quickly. Cuts fall in the middle of pauses so no word is split; a piece
// with no speech at all (one side of a stereo call while the other talks) is not sent to the recogniser.
import { frameEnergies, voicedRegions, type TimeRegion } from './voice-activity.ts';

export interface AudioChunk {
  startSample: number;
  endSample: number;
  /** Voiced regions inside the chunk, in seconds from the start of the whole audio. */
  speech: TimeRegion[];
}

export interface ChunkPlanOptions {
  sampleRate: number;
  maxChunkSeconds: number;
}

export function planChunks(samples: Int16Array, options: ChunkPlanOptions): AudioChunk[] {
  const { sampleRate, maxChunkSeconds } = options;
  const totalSeconds = samples.length / sampleRate;
  const regions = voicedRegions(frameEnergies(samples, sampleRate), 0.15, 0.05);
  const cuts = cutPoints(regions, totalSeconds, maxChunkSeconds);
  const chunks: AudioChunk[] = [];
  for (let index = 0; index + 1 < cuts.length; index++) {
    const start = cuts[index]!;
    const end = cuts[index + 1]!;
    const speech = regions.filter((region) => region.end > start && region.start < end);
    if (speech.length === 0) continue;
    chunks.push({
      startSample: Math.round(start * sampleRate),
      endSample: Math.min(samples.length, Math.round(end * sampleRate)),
      speech,
    });
  }
  return chunks;
}

/** Boundaries from 0 to the end; each next cut is the longest pause in the second half of the allowed span. */
function cutPoints(regions: TimeRegion[], totalSeconds: number, maxChunkSeconds: number): number[] {
  const pauses = regions.slice(1).map((region, index) => {
    const previousEnd = regions[index]!.end;
    return { at: (previousEnd + region.start) / 2, length: region.start - previousEnd };
  });
  const cuts = [0];
  let chunkStart = 0;
  while (totalSeconds - chunkStart > maxChunkSeconds) {
    const earliest = chunkStart + maxChunkSeconds / 2;
    const latest = chunkStart + maxChunkSeconds;
    let best: { at: number; length: number } | undefined;
    for (const pause of pauses) {
      if (pause.at < earliest || pause.at > latest) continue;
      if (best === undefined || pause.length >= best.length) best = pause;
    }
    chunkStart = best?.at ?? latest;
    cuts.push(chunkStart);
  }
  cuts.push(totalSeconds);
  return cuts;
}
