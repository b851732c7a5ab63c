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

/** A silent 16-bit PCM WAV of `frameCount` frames: its header written, every sample zero. */
function silentWav(sampleRate: number, channelCount: number, frameCount: number): Buffer {
  const dataBytes = frameCount * channelCount * 2;
  // Buffer.alloc (not the pooled allocUnsafe): the samples start aligned at offset 44 of their own memory.
  const buffer = Buffer.alloc(WAV_HEADER_BYTES + dataBytes);
  buffer.write('RIFF', 0, 'ascii');
  buffer.writeUInt32LE(36 + dataBytes, 4);
  buffer.write('WAVE', 8, 'ascii');
  buffer.write('fmt ', 12, 'ascii');
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(channelCount, 22);
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * channelCount * 2, 28);
  buffer.writeUInt16LE(channelCount * 2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write('data', 36, 'ascii');
  buffer.writeUInt32LE(dataBytes, 40);
  return buffer;
}

export function encodeWav(audio: PcmAudio): Buffer {
  const channelCount = audio.channels.length;
  if (channelCount === 0) throw new InvalidWavError('no channels to encode');
  const frameCount = audio.channels[0]!.length;
  if (audio.channels.some((channel) => channel.length !== frameCount)) {
    throw new InvalidWavError('channels must have the same length');
  }
  const buffer = silentWav(audio.sampleRate, channelCount, frameCount);
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
    return { sampleRate: this.sampleRate, channels: [this.renderSide('agent'), this.renderSide('customer')] };
  }

  /**
   * The recording as a WAV file. When neither side's clips overlap (a call's turns, almost always) each clip is
   * written once into the file's interleaved samples and the silence between them is never touched: a call ends on
   * the event loop, and a minute's recording built channel by channel and then interleaved took ~10 ms of it.
   */
  renderWav(): Buffer {
    const sides = [this.clipsOf('agent'), this.clipsOf('customer')];
    if (!IS_LITTLE_ENDIAN_HOST || sides.some((clips) => overlaps(clips))) return encodeWav(this.render());
    const wav = silentWav(this.sampleRate, 2, this.lengthSamples);
    const samples = new Int16Array(wav.buffer, wav.byteOffset + WAV_HEADER_BYTES, this.lengthSamples * 2);
    sides.forEach((clips, channel) => {
      for (const clip of clips) {
        for (let index = 0, target = clip.startSample * 2 + channel; index < clip.samples.length; index++, target += 2) samples[target] = clip.samples[index]!;
      }
    });
    return wav;
  }

  private clipsOf(side: RecordingSide): PlacedClip[] {
    return this.clips.filter((clip) => clip.side === side).sort((a, b) => a.startSample - b.startSample);
  }

  /**
   * One channel. Clips that do not overlap (a call's turns, almost always) are copied in place; only when two
   * overlap is the channel summed wide and clipped once, so that a sum is the same whatever the clips' order.
   * The copy matters: a call ends on the event loop, and summing every sample of a minute's recording took ~10 ms.
   */
  private renderSide(side: RecordingSide): Int16Array {
    const clips = this.clipsOf(side);
    if (!overlaps(clips)) {
      const channel = new Int16Array(this.lengthSamples);
      for (const clip of clips) channel.set(clip.samples, clip.startSample);
      return channel;
    }
    const sum = new Int32Array(this.lengthSamples);
    for (const clip of clips) {
      for (let index = 0; index < clip.samples.length; index++) sum[clip.startSample + index]! += clip.samples[index]!;
    }
    return clampToInt16(sum);
  }
}

/** Whether any of these clips, sorted by start, begins before the one before it ends. */
function overlaps(clips: readonly PlacedClip[]): boolean {
  return clips.some((clip, index) => index > 0 && clip.startSample < clips[index - 1]!.startSample + clips[index - 1]!.samples.length);
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
