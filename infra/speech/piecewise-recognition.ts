// Recognises long audio piece by piece (pieces cut at pauses, see chunk-plan.ts), at most `limit` pieces at
// once, and puts the words back on the timeline of the whole audio. When one piece fails, the pieces still
// running are aborted: the recognition has failed anyway and they would only hold processes or connections.
import { planChunks } from './chunk-plan.ts';
import type { ConcurrencyLimit } from './concurrency-limit.ts';
import { RECOGNIZER_SAMPLE_RATE, type RecognizedWord } from './port.ts';

export type PieceRecognizer = (samples: Int16Array, signal: AbortSignal) => Promise<RecognizedWord[]>;

export async function recognizeInPieces(
  pcm16kMono: Int16Array,
  maxPieceSeconds: number,
  limit: ConcurrencyLimit,
  signal: AbortSignal | undefined,
  recognizePiece: PieceRecognizer,
): Promise<RecognizedWord[]> {
  const chunks = planChunks(pcm16kMono, { sampleRate: RECOGNIZER_SAMPLE_RATE, maxChunkSeconds: maxPieceSeconds });
  const pieceAbort = new AbortController();
  const onOuterAbort = () => pieceAbort.abort();
  if (signal?.aborted) pieceAbort.abort();
  signal?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    const pieces = await Promise.all(
      chunks.map(async (chunk) => {
        try {
          const samples = pcm16kMono.subarray(chunk.startSample, chunk.endSample);
          const words = await limit.run(() => recognizePiece(samples, pieceAbort.signal));
          const offsetSeconds = chunk.startSample / RECOGNIZER_SAMPLE_RATE;
          return words.map((word) => ({ ...word, start: word.start + offsetSeconds, end: word.end + offsetSeconds }));
        } catch (error) {
          pieceAbort.abort();
          throw error;
        }
      }),
    );
    return pieces.flat();
  } finally {
    signal?.removeEventListener('abort', onOuterAbort);
  }
}
