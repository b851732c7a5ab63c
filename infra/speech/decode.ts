// Turns a recording on disk into 16 kHz 16-bit PCM, one array per channel. The spec accepts WAV, MP3, OGG (Vorbis
// and Opus), FLAC and M4A (AAC); ffprobe identifies the container and codec first, so anything else is refused
// with a typed error before any decoding work is spent on it.
import { runTool, ExternalToolError } from './external-tool.ts';
import { int16FromLittleEndianBytes } from './wav.ts';

export const DECODED_SAMPLE_RATE = 16_000;
export const DEFAULT_MAX_DURATION_SECONDS = 4 * 60 * 60;

export type SupportedAudioFormat = 'wav' | 'mp3' | 'ogg_vorbis' | 'ogg_opus' | 'flac' | 'm4a';

export const SUPPORTED_FORMATS_DESCRIPTION = 'WAV, MP3, OGG (Vorbis or Opus), FLAC, M4A (AAC)';

export class UnsupportedFormatError extends Error {
  readonly code = 'unsupported_format';
  constructor(readonly detected: string) {
    super(`unsupported audio format (${detected}); supported formats: ${SUPPORTED_FORMATS_DESCRIPTION}`);
    this.name = 'UnsupportedFormatError';
  }
}

export class AudioTooLongError extends Error {
  readonly code = 'audio_too_long';
  constructor(
    readonly durationSeconds: number,
    readonly maxDurationSeconds: number,
  ) {
    super(`audio lasts ${Math.round(durationSeconds)} s, more than the limit of ${maxDurationSeconds} s`);
    this.name = 'AudioTooLongError';
  }
}

/** The container and codec were recognised but the stream could not be decoded (a truncated or corrupt file). */
export class AudioDecodeError extends Error {
  readonly code = 'invalid_audio';
  constructor(message: string) {
    super(message);
    this.name = 'AudioDecodeError';
  }
}

export interface AudioProbe {
  format: SupportedAudioFormat;
  codec: string;
  /** Channels in the file; files with more than two are decoded as a mono downmix. */
  channelCount: number;
  /** From the container; null when the container does not say (then the decoded length is authoritative). */
  durationSeconds: number | null;
}

export interface DecodedAudio {
  sampleRate: typeof DECODED_SAMPLE_RATE;
  /** One array per channel: one for mono, left and right for stereo. */
  channels: Int16Array[];
  durationSeconds: number;
  probe: AudioProbe;
}

export interface DecodeOptions {
  maxDurationSeconds?: number;
  signal?: AbortSignal;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  channels?: number;
  duration?: string;
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: FfprobeStream[];
}

const PROBE_TIMEOUT_MS = 30_000;

// A recording comes from an untrusted URL. Playlist formats (HLS) would make ffprobe fetch the addresses inside
// them, so only the file protocol is allowed, and the path is spelled as a file URL so that a name like
// `http:...` or `-x` can never be read as a protocol or an option.
const LOCAL_FILES_ONLY = ['-protocol_whitelist', 'file'];

function asLocalFileUrl(path: string): string {
  return `file:${path}`;
}

// The demuxer is forced at decode time to the one the probe accepted, so decoding cannot pick another.
const DEMUXER_OF: Record<SupportedAudioFormat, string> = {
  wav: 'wav',
  mp3: 'mp3',
  flac: 'flac',
  ogg_vorbis: 'ogg',
  ogg_opus: 'ogg',
  m4a: 'mov',
};

export async function probeAudio(path: string, signal?: AbortSignal): Promise<AudioProbe> {
  let output: FfprobeOutput;
  try {
    const { stdout } = await runTool(
      'ffprobe',
      ['-v', 'error', ...LOCAL_FILES_ONLY, '-print_format', 'json', '-show_format', '-show_streams', '-i', asLocalFileUrl(path)],
      { timeoutMs: PROBE_TIMEOUT_MS, signal },
    );
    output = JSON.parse(stdout.toString('utf8')) as FfprobeOutput;
  } catch (error) {
    // ffprobe refuses files it cannot parse at all (text, truncated headers): that is a format problem.
    if (error instanceof ExternalToolError && error.exitCode !== null) throw new UnsupportedFormatError('unrecognised data');
    throw error;
  }
  const containerNames = (output.format?.format_name ?? '').split(',');
  const audioStream = output.streams?.find((stream) => stream.codec_type === 'audio');
  const codec = audioStream?.codec_name ?? 'none';
  const format = classify(containerNames, codec);
  if (format === null || audioStream === undefined) {
    throw new UnsupportedFormatError(`${output.format?.format_name ?? 'unknown'} container, ${codec} codec`);
  }
  return {
    format,
    codec,
    channelCount: audioStream.channels ?? 1,
    durationSeconds: parseSeconds(output.format?.duration) ?? parseSeconds(audioStream.duration),
  };
}

function classify(containerNames: string[], codec: string): SupportedAudioFormat | null {
  if (containerNames.includes('wav')) return 'wav';
  if (containerNames.includes('mp3') && codec === 'mp3') return 'mp3';
  if (containerNames.includes('flac') && codec === 'flac') return 'flac';
  if (containerNames.includes('ogg') && codec === 'vorbis') return 'ogg_vorbis';
  if (containerNames.includes('ogg') && codec === 'opus') return 'ogg_opus';
  if (containerNames.includes('m4a') && codec === 'aac') return 'm4a';
  return null;
}

function parseSeconds(value: string | undefined): number | null {
  const seconds = value === undefined ? NaN : Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

export async function decodeAudioFile(path: string, options: DecodeOptions = {}): Promise<DecodedAudio> {
  const maxDurationSeconds = options.maxDurationSeconds ?? DEFAULT_MAX_DURATION_SECONDS;
  const probe = await probeAudio(path, options.signal);
  if (probe.durationSeconds !== null && probe.durationSeconds > maxDurationSeconds) {
    throw new AudioTooLongError(probe.durationSeconds, maxDurationSeconds);
  }
  // Each channel is decoded by its own ffmpeg run straight into its final array: interleaved output would need a
  // second copy, and at four hours a stereo copy is close to a gigabyte.
  const channelFilters = probe.channelCount === 2 ? ['pan=mono|c0=c0', 'pan=mono|c0=c1'] : ['pan=mono|c0=c0'];
  const downmixToMono = probe.channelCount > 2;
  const channels: Int16Array[] = [];
  for (const filter of channelFilters) {
    channels.push(await decodeChannel(path, downmixToMono ? null : filter, probe, maxDurationSeconds, options.signal));
  }
  const durationSeconds = channels[0]!.length / DECODED_SAMPLE_RATE;
  if (durationSeconds > maxDurationSeconds) throw new AudioTooLongError(durationSeconds, maxDurationSeconds);
  return { sampleRate: DECODED_SAMPLE_RATE, channels, durationSeconds, probe };
}

async function decodeChannel(
  path: string,
  panFilter: string | null,
  probe: AudioProbe,
  maxDurationSeconds: number,
  signal: AbortSignal | undefined,
): Promise<Int16Array> {
  // Decode a little past the limit so an over-long file is detected even when the container lied about length.
  const decodeLimitSeconds = maxDurationSeconds + 1;
  const expectedSeconds = Math.min(probe.durationSeconds ?? 60, decodeLimitSeconds) + 1;
  const args = ['-nostdin', '-hide_banner', '-v', 'error', ...LOCAL_FILES_ONLY, '-f', DEMUXER_OF[probe.format]];
  args.push('-i', asLocalFileUrl(path), '-map', '0:a:0', '-vn', '-t', String(decodeLimitSeconds));
  args.push(...(panFilter === null ? ['-ac', '1'] : ['-af', panFilter]));
  args.push('-ar', String(DECODED_SAMPLE_RATE), '-acodec', 'pcm_s16le', '-f', 's16le', 'pipe:1');
  try {
    const { stdout } = await runTool('ffmpeg', args, {
      timeoutMs: 60_000 + (probe.durationSeconds ?? maxDurationSeconds) * 250,
      signal,
      expectedStdoutBytes: Math.ceil(expectedSeconds * DECODED_SAMPLE_RATE * 2),
      maxStdoutBytes: Math.ceil((decodeLimitSeconds + 1) * DECODED_SAMPLE_RATE * 2),
    });
    return int16FromLittleEndianBytes(stdout);
  } catch (error) {
    if (error instanceof ExternalToolError) throw new AudioDecodeError(`could not decode ${probe.format} audio: ${error.message}`);
    throw error;
  }
}
