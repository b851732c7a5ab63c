// A PocketSphinx decoder fed while the customer speaks (issue 17: the next prompt within 1 s of the end of an
// English answer). Decoding a finished answer costs a process start, loading the acoustic model, dictionary and
// language model (about 0.5 s on an idle core, several times that under load), then the decode itself; here the
// process starts at the first audio of the answer and decodes it as it arrives, so when the utterance ends only
// its last fraction of a second and the final search are left.
//
// `pocketsphinx_continuous -infile` reads its input by name with stdio, in blocks, until end of file, and this is
// the program every other recognition here uses (same front end, same live CMN, same VAD), so the words are the
// ones a batch decode of the same audio gives. The input is a named pipe (FIFO) in a private temporary directory:
// Node's child stdin is a socket, which the decoder cannot open by name. We open our end once the decoder has
// opened its own, write it non-blocking through libuv (audio that comes earlier waits in memory), and closing it
// is the decoder's end of file.
import { constants, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool } from './external-tool.ts';
import type { RecognizedWord } from './port.ts';

export interface LiveDecoderLaunch {
  binary: string;
  /** The decoder's arguments, without `-infile`. */
  args: readonly string[];
  /** Longest the process may live (the longest answer plus its decode). */
  timeoutMs: number;
  parse(stdout: string): RecognizedWord[];
}

/** Longest answer kept in memory before the decoder reads it (16 kHz, 16-bit): beyond it audio is dropped. */
const MAX_PENDING_BYTES = 60 * 16_000 * 2;

export class LiveDecoding {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private input: Socket | null = null;
  private lastWrite: Promise<void> = Promise.resolve();
  private inputDone = false;
  private readonly abort = new AbortController();
  private readonly words: Promise<RecognizedWord[]>;

  /** Starts the decoder now; `release` is called once it has exited (its slot in a concurrency limit). */
  constructor(private readonly launch: LiveDecoderLaunch, release: () => void) {
    this.words = this.run().finally(release);
    // A cancelled decoding is not awaited by anyone.
    this.words.catch(() => undefined);
  }

  /** The next 16 kHz mono samples of the answer. */
  write(pcm16k: Int16Array): void {
    if (this.inputDone || pcm16k.length === 0) return;
    const bytes = Buffer.from(pcm16k.buffer, pcm16k.byteOffset, pcm16k.byteLength);
    if (this.input) this.send(Buffer.from(bytes));
    else if (this.pendingBytes + bytes.length <= MAX_PENDING_BYTES) {
      this.pending.push(Buffer.from(bytes));
      this.pendingBytes += bytes.length;
    }
  }

  /** The answer is complete: end of input, then the decoder's words. */
  finish(): Promise<RecognizedWord[]> {
    this.closeInput();
    return this.words;
  }

  cancel(): void {
    this.inputDone = true;
    this.abort.abort();
    this.input?.destroy();
  }

  private send(bytes: Buffer): void {
    const input = this.input!;
    this.lastWrite = new Promise((resolve) => input.write(bytes, () => resolve()));
  }

  private closeInput(): void {
    if (this.inputDone) return;
    this.inputDone = true;
    // Closing our end after the last write has reached the pipe: the decoder then reads to end of file.
    if (this.input) {
      const input = this.input;
      void this.lastWrite.then(() => input.destroy());
    }
  }

  private async run(): Promise<RecognizedWord[]> {
    const directory = await mkdtemp(join(tmpdir(), 'pocketsphinx-live-'));
    try {
      const fifo = join(directory, 'answer.raw');
      await runTool('mkfifo', ['-m', '600', fifo], { timeoutMs: 10_000, signal: this.abort.signal });
      if (this.abort.signal.aborted) return [];
      const decoding = runTool(this.launch.binary, [...this.launch.args, '-infile', fifo], {
        timeoutMs: this.launch.timeoutMs,
        signal: this.abort.signal,
        maxStdoutBytes: 1024 * 1024,
      });
      let exited = false;
      const onExit = () => {
        exited = true;
        // A decoder that stopped reading would leave writes waiting for ever: its exit closes our end.
        this.input?.destroy();
      };
      void decoding.then(onExit, onExit);
      const fd = await openOnceReaderIsThere(fifo, () => exited || this.abort.signal.aborted);
      if (fd !== null) {
        const input = new Socket({ fd, readable: false, writable: true });
        input.on('error', () => undefined);
        this.input = input;
        for (const chunk of this.pending) this.send(chunk);
        this.pending = [];
        if (this.inputDone) void this.lastWrite.then(() => input.destroy());
        if (this.abort.signal.aborted || exited) input.destroy();
      }
      const { stdout } = await decoding;
      return this.launch.parse(stdout.toString('utf8'));
    } finally {
      this.input?.destroy();
      await rm(directory, { recursive: true, force: true });
    }
  }
}

/**
 * Our end of the FIFO, opened once the decoder has opened its end: a non-blocking open for writing fails (ENXIO)
 * until a reader is there, and then never loses what is written (a FIFO nobody holds drops its contents, so
 * opening earlier and closing before the decoder's open would lose the answer and never give it end of file).
 * Polled every 10 ms while the decoder loads its models; null if it is gone first.
 */
async function openOnceReaderIsThere(fifo: string, gone: () => boolean): Promise<number | null> {
  for (;;) {
    try {
      return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
    }
    if (gone()) return null;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
