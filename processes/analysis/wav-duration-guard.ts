/**
 * The 4-hour limit while a download streams in, for WAV (the format call recorders write, and the one whose
 * size grows fastest: a 4-hour 8 kHz mono PCM file is 230 MB, under the size limit). A WAV header states the
 * byte rate and, usually, the data size: a header that announces more than the limit is refused at once, and
 * otherwise the download stops as soon as the bytes received amount to more audio than the limit.
 * Compressed formats carry no dependable byte rate in their first bytes; for them the decoder checks the
 * container's duration before decoding anything (infra/speech/decode.ts), so the limit still holds before any
 * real work is spent.
 */
const HEADER_BYTES_NEEDED = 4096;

export class WavDurationGuard {
  private header = Buffer.alloc(0);
  private byteRate: number | null = null;
  private dataOffset = 0;
  private decided = false;

  constructor(private readonly maxSeconds: number) {}

  /** Feeds the next chunk; returns why the audio is too long, or null. `received` counts every byte so far. */
  feed(chunk: Buffer, received: number): string | null {
    if (!this.decided) {
      this.header = Buffer.concat([this.header, chunk.subarray(0, HEADER_BYTES_NEEDED - this.header.length)]);
      const parsed = parseWavHeader(this.header);
      if (parsed === 'not_wav') {
        this.decided = true;
      } else if (parsed !== 'need_more') {
        this.decided = true;
        this.byteRate = parsed.byteRate;
        this.dataOffset = parsed.dataOffset;
        // 0 and 0xFFFFFFFF are what streaming writers put in before they know the size.
        if (parsed.dataBytes > 0 && parsed.dataBytes < 0xffffffff && parsed.dataBytes / parsed.byteRate > this.maxSeconds) {
          return this.message(parsed.dataBytes / parsed.byteRate);
        }
      } else if (this.header.length >= HEADER_BYTES_NEEDED) {
        this.decided = true;
      }
    }
    if (this.byteRate === null) return null;
    const seconds = (received - this.dataOffset) / this.byteRate;
    return seconds > this.maxSeconds ? this.message(seconds) : null;
  }

  private message(seconds: number): string {
    return `the audio lasts more than the limit of ${this.maxSeconds} s (at least ${Math.round(seconds)} s)`;
  }
}

type Parsed = 'need_more' | 'not_wav' | { byteRate: number; dataBytes: number; dataOffset: number };

function parseWavHeader(bytes: Buffer): Parsed {
  if (bytes.length < 12) return 'need_more';
  if (bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE') return 'not_wav';
  let offset = 12;
  let byteRate: number | null = null;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ') {
      if (offset + 20 > bytes.length) return 'need_more';
      byteRate = bytes.readUInt32LE(offset + 16);
      if (byteRate === 0) return 'not_wav';
    } else if (id === 'data') {
      return byteRate === null ? 'not_wav' : { byteRate, dataBytes: size, dataOffset: offset + 8 };
    }
    offset += 8 + size + (size % 2);
  }
  return 'need_more';
}
