// 16-bit PCM WAV in and out, and the stereo layout of call recordings: agent on the left channel, customer on
// the right. Channels are kept as separate Int16Arrays everywhere else in infra/speech; interleaving happens
// only here, at the file boundary.

export interface PcmAudio {
  sampleRate: number;
  /** One array per channel (1 = mono, 2 = stereo: left, right). */
  channels: Int16Array[];
}

export class InvalidWavError extends Error {
  readonly code = 'invalid_wav';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidWavError';
  }
}

const WAV_HEADER_BYTES = 44;

export function encodeWav(audio: PcmAudio): Buffer {
  const channelCount = audio.channels.length;
  if (channelCount === 0) throw new InvalidWavError('no channels to encode');
  const frameCount = audio.channels[0]!.length;
  if (audio.channels.some((channel) => channel.length !== frameCount)) {
    throw new InvalidWavError('channels must have the same length');
  }
  const dataBytes = frameCount * channelCount * 2;
  const buffer = Buffer.alloc(WAV_HEADER_BYTES + dataBytes);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(channelCount, 22);
  buffer.writeUInt32LE(audio.sampleRate, 24);
  buffer.writeUInt32LE(audio.sampleRate * channelCount * 2, 28);
  buffer.writeUInt16LE(channelCount * 2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(dataBytes, 40);
  if (IS_LITTLE_ENDIAN_HOST && (buffer.byteOffset + WAV_HEADER_BYTES) % 2 === 0) {
    // Interleave through a typed view: a call's recording is millions of samples, and writing them one by one
    // through writeInt16LE took tens of milliseconds of the event loop per call.
    const samples = new Int16Array(buffer.buffer, buffer.byteOffset + WAV_HEADER_BYTES, frameCount * channelCount);
    for (let channel = 0; channel < channelCount; channel++) {
      const source = audio.channels[channel]!;
      for (let frame = 0, target = channel; frame < frameCount; frame++, target += channelCount) samples[target] = source[frame]!;
    }
    return buffer;
  }
  let offset = WAV_HEADER_BYTES;
  for (let frame = 0; frame < frameCount; frame++) {
    for (let channel = 0; channel < channelCount; channel++) {
      buffer.writeInt16LE(audio.channels[channel]![frame]!, offset);
      offset += 2;
    }
  }
  return buffer;
}

/** Reads a 16-bit PCM WAV. Tolerates a data chunk whose declared size overruns the file (streamed writers). */
export function decodeWav(bytes: Buffer): PcmAudio {
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') {
    throw new InvalidWavError('not a RIFF/WAVE file');
  }
  let offset = 12;
  let channelCount = 0;
  let sampleRate = 0;
  let bitsPerSample = 0;
  let formatTag = 0;
  while (offset + 8 <= bytes.length) {
    const chunkId = bytes.toString('ascii', offset, offset + 4);
    const chunkSize = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (chunkId === 'fmt ') {
      formatTag = bytes.readUInt16LE(body);
      channelCount = bytes.readUInt16LE(body + 2);
      sampleRate = bytes.readUInt32LE(body + 4);
      bitsPerSample = bytes.readUInt16LE(body + 14);
      // WAVE_FORMAT_EXTENSIBLE carries the real format in its sub-format GUID's first two bytes.
      if (formatTag === 0xfffe && chunkSize >= 26) formatTag = bytes.readUInt16LE(body + 24);
    } else if (chunkId === 'data') {
      if (formatTag !== 1 || bitsPerSample !== 16 || channelCount < 1) {
        throw new InvalidWavError(`only 16-bit PCM WAV is read here (format ${formatTag}, ${bitsPerSample} bits)`);
      }
      const available = Math.min(chunkSize, bytes.length - body);
      const frameCount = Math.floor(available / (2 * channelCount));
      return { sampleRate, channels: deinterleave(bytes.subarray(body, body + frameCount * 2 * channelCount), channelCount) };
    }
    offset = body + chunkSize + (chunkSize % 2);
  }
  throw new InvalidWavError('WAV file has no data chunk');
}

/** Splits interleaved little-endian 16-bit samples into one array per channel. */
export function deinterleave(bytes: Buffer, channelCount: number): Int16Array[] {
  const frameCount = Math.floor(bytes.length / (2 * channelCount));
  const channels = Array.from({ length: channelCount }, () => new Int16Array(frameCount));
  let offset = 0;
  for (let frame = 0; frame < frameCount; frame++) {
    for (let channel = 0; channel < channelCount; channel++) {
      channels[channel]![frame] = bytes.readInt16LE(offset);
      offset += 2;
    }
  }
  return channels;
}

/** Two mono tracks as one stereo recording; the shorter one is padded with silence. */
export function mixStereo(
  left: Int16Array,
  right: Int16Array,
  sampleRate = 16_000,
): PcmAudio & { channels: [Int16Array, Int16Array] } {
  const length = Math.max(left.length, right.length);
  const paddedLeft = new Int16Array(length);
  paddedLeft.set(left);
  const paddedRight = new Int16Array(length);
  paddedRight.set(right);
  return { sampleRate, channels: [paddedLeft, paddedRight] };
}

export type RecordingSide = 'agent' | 'customer';

interface PlacedClip {
  side: RecordingSide;
  startSample: number;
  samples: Int16Array;
}

/**
 * Builds a call recording from speech clips placed at offsets: agent clips on the left channel, customer clips on
 * the right. Overlapping clips on one side are summed with clipping, as a real line would carry them.
 */
export class StereoRecorder {
  private readonly clips: PlacedClip[] = [];
  private lengthSamples = 0;

  constructor(readonly sampleRate: number) {}

  place(side: RecordingSide, offsetSeconds: number, samples: Int16Array): void {
    if (!(offsetSeconds >= 0)) throw new RangeError(`clip offset must be a non-negative number, got ${offsetSeconds}`);
    const startSample = Math.round(offsetSeconds * this.sampleRate);
    this.clips.push({ side, startSample, samples });
    this.lengthSamples = Math.max(this.lengthSamples, startSample + samples.length);
  }

  /** Extends the recording with trailing silence up to the given length (a call that ends after a pause). */
  extendTo(durationSeconds: number): void {
    this.lengthSamples = Math.max(this.lengthSamples, Math.round(durationSeconds * this.sampleRate));
  }

  get durationSeconds(): number {
    return this.lengthSamples / this.sampleRate;
  }

  render(): PcmAudio & { channels: [Int16Array, Int16Array] } {
    const left = new Int32Array(this.lengthSamples);
    const right = new Int32Array(this.lengthSamples);
    for (const clip of this.clips) {
      const target = clip.side === 'agent' ? left : right;
      for (let index = 0; index < clip.samples.length; index++) target[clip.startSample + index]! += clip.samples[index]!;
    }
    return { sampleRate: this.sampleRate, channels: [clampToInt16(left), clampToInt16(right)] };
  }

  renderWav(): Buffer {
    return encodeWav(this.render());
  }
}

function clampToInt16(samples: Int32Array): Int16Array {
  const clamped = new Int16Array(samples.length);
  for (let index = 0; index < samples.length; index++) {
    clamped[index] = Math.max(-32768, Math.min(32767, samples[index]!));
  }
  return clamped;
}

const IS_LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Views little-endian 16-bit sample bytes as an Int16Array without copying when the bytes are aligned and fill
 * most of their backing store (a 4-hour channel is 460 MB; a copy would double the peak memory).
 */
export function int16FromLittleEndianBytes(bytes: Buffer): Int16Array {
  const sampleCount = Math.floor(bytes.length / 2);
  const viewable =
    IS_LITTLE_ENDIAN_HOST && bytes.byteOffset % 2 === 0 && bytes.length >= 0.75 * bytes.buffer.byteLength;
  if (viewable) return new Int16Array(bytes.buffer, bytes.byteOffset, sampleCount);
  const samples = new Int16Array(sampleCount);
  for (let index = 0; index < sampleCount; index++) samples[index] = bytes.readInt16LE(index * 2);
  return samples;
}
