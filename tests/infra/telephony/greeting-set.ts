import { synthesize } from '../../../infra/speech/synthesize.ts';

/**
 * The answering-machine detection set (issue 17): greetings recorded with the speech tools (Festival and
 * espeak-ng voices, 8 kHz like a phone line), each with what answered. People: a short word or two, then the
 * silence of someone waiting. Machines: personal greetings, carrier voicemail prompts with and without the beep,
 * and a greeting whose beep follows a pause. Silence: nobody says anything.
 */
export interface Greeting {
  name: string;
  truth: 'human' | 'machine' | 'silence';
  pcm: Int16Array;
}

const RATE = 8000;

async function speech(text: string, language: string, voice: string): Promise<Int16Array> {
  return (await synthesize(text, language, { voice, sampleRate: RATE })).pcm;
}

function silence(seconds: number): Int16Array {
  return new Int16Array(Math.round(seconds * RATE));
}

/** A voicemail beep: a pure tone with 10 ms ramps. */
export function beep(frequency: number, seconds: number, amplitude = 9000): Int16Array {
  const samples = Math.round(seconds * RATE);
  const ramp = 80;
  return Int16Array.from({ length: samples }, (_, index) => Math.round(amplitude * Math.min(1, index / ramp, (samples - index) / ramp) * Math.sin((2 * Math.PI * frequency * index) / RATE)));
}

function join(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Low line noise, as a real line has (deterministic). */
function withNoise(pcm: Int16Array, amplitude = 30): Int16Array {
  let seed = 12345;
  return pcm.map((sample) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return Math.max(-32768, Math.min(32767, sample + Math.round(((seed / 0x7fffffff) * 2 - 1) * amplitude)));
  });
}

export async function greetingSet(): Promise<Greeting[]> {
  const human = async (name: string, text: string, language: string, voice: string, lead = 0.4) =>
    ({ name, truth: 'human' as const, pcm: withNoise(join(silence(lead), await speech(text, language, voice), silence(4))) });
  const machine = async (name: string, text: string, language: string, voice: string, tail: Int16Array = silence(0)) =>
    ({ name, truth: 'machine' as const, pcm: withNoise(join(silence(0.5), await speech(text, language, voice), tail, silence(1))) });
  return Promise.all([
    human('hello (en, Festival)', 'Hello?', 'en-IN', 'customer'),
    human('hello (en, espeak male)', 'Hello?', 'en-IN', 'espeak-ng:en+m3'),
    human('yes, who is this (en)', 'Yes, who is this?', 'en-IN', 'agent'),
    human('hello, Ravi speaking (en)', 'Hello, Ravi here.', 'en-IN', 'espeak-ng:en+m1', 0.8),
    human('haan, boliye (hi)', 'हाँ, बोलिए?', 'hi-IN', 'customer'),
    human('hello (ta)', 'ஹலோ?', 'ta-IN', 'agent'),
    human('hello (mr)', 'हॅलो?', 'mr-IN', 'customer', 1.2),
    machine('personal greeting with beep (en)', "Hi, you've reached Priya. I can't take your call right now. Please leave a message after the tone.", 'en-IN', 'agent', join(silence(0.3), beep(1000, 0.6))),
    machine('personal greeting, no beep (en)', 'Hello, this is Arjun Mehta. Sorry I missed your call, I will call you back as soon as I can.', 'en-IN', 'espeak-ng:en+m3'),
    machine('carrier voicemail prompt with beep (en)', 'The number you have dialled is not available. Please record your message after the beep. When you have finished, hang up.', 'en-IN', 'agent', join(silence(0.4), beep(850, 0.5))),
    machine('carrier voicemail prompt (hi)', 'आप जिस नंबर पर कॉल कर रहे हैं, वह अभी उपलब्ध नहीं है। कृपया बीप के बाद अपना संदेश रिकॉर्ड करें।', 'hi-IN', 'agent', join(silence(0.3), beep(1400, 0.4))),
    machine('short greeting then beep (en)', 'Leave a message.', 'en-IN', 'customer', join(silence(0.5), beep(1000, 0.5))),
    { name: 'silence', truth: 'silence', pcm: withNoise(silence(5)) },
  ]);
}
