import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { regionPitch } from '../../../infra/speech/pitch.ts';
import { SpeechSynthesizer, SynthesisLanguageError, synthesize } from '../../../infra/speech/synthesize.ts';

const PHRASES: Record<string, string> = {
  'hi-IN': 'नमस्ते, मैं बैंक से बोल रही हूँ।',
  'ta-IN': 'வணக்கம், நான் வங்கியிலிருந்து பேசுகிறேன்.',
  'te-IN': 'నమస్కారం, నేను బ్యాంకు నుండి మాట్లాడుతున్నాను.',
  'mr-IN': 'नमस्कार, मी बँकेतून बोलत आहे.',
  'en-IN': 'Hello, I am calling from the bank.',
};

function seconds(speech: { pcm: Int16Array; sampleRate: number }): number {
  return speech.pcm.length / speech.sampleRate;
}

function peak(samples: Int16Array): number {
  let loudest = 0;
  for (const sample of samples) loudest = Math.max(loudest, Math.abs(sample));
  return loudest;
}

for (const [language, phrase] of Object.entries(PHRASES)) {
  test(`${language}: speaks the phrase at 16 kHz and at 8 kHz`, async () => {
    const wide = await synthesize(phrase, language);
    assert.is(wide.sampleRate, 16_000);
    assert.ok(seconds(wide) > 1 && seconds(wide) < 8, `lasts ${seconds(wide)} s`);
    assert.ok(peak(wide.pcm) > 3_000, 'is audible');
    const narrow = await synthesize(phrase, language, { sampleRate: 8_000 });
    assert.is(narrow.sampleRate, 8_000);
    assert.ok(Math.abs(seconds(narrow) - seconds(wide)) < 0.1, 'same speech at another rate');
  });
}

test('agent and customer voices differ in pitch (so a mono recording can be diarised)', async () => {
  for (const language of ['en-IN', 'hi-IN']) {
    const agent = await synthesize(PHRASES[language]!, language, { voice: 'agent' });
    const customer = await synthesize(PHRASES[language]!, language, { voice: 'customer' });
    const agentPitch = regionPitch(agent.pcm, agent.sampleRate, 0, seconds(agent)).medianHz!;
    const customerPitch = regionPitch(customer.pcm, customer.sampleRate, 0, seconds(customer)).medianHz!;
    assert.ok(agentPitch / customerPitch > 1.25, `${language}: agent ${agentPitch} Hz, customer ${customerPitch} Hz`);
  }
});

test('repeated phrases come from the cache, and concurrent requests synthesise once', async () => {
  const synthesizer = new SpeechSynthesizer({ cacheEntries: 2 });
  const [first, second] = await Promise.all([
    synthesizer.synthesize('Thank you for your time.', 'en-IN'),
    synthesizer.synthesize('Thank you for your time.', 'en-IN'),
  ]);
  assert.is(first, second);
  assert.is(synthesizer.cachedPhrases, 1);
  const started = performance.now();
  const third = await synthesizer.synthesize('Thank you for your time.', 'en-IN');
  assert.is(third, first);
  assert.ok(performance.now() - started < 5, 'a cache hit costs no synthesis');
  await synthesizer.synthesize('Goodbye.', 'en-IN');
  await synthesizer.synthesize('Goodbye.', 'en-IN', { voice: 'customer' });
  assert.is(synthesizer.cachedPhrases, 2, 'least recently used phrase evicted');
  assert.is.not(await synthesizer.synthesize('Thank you for your time.', 'en-IN'), first);
});

test('the same phrase renders to the same samples every time (no dither), customer voice included', async () => {
  const first = await new SpeechSynthesizer().synthesize('Yes, I have a minute.', 'en-IN', { voice: 'customer' });
  const second = await new SpeechSynthesizer().synthesize('Yes, I have a minute.', 'en-IN', { voice: 'customer' });
  assert.ok(first.pcm !== second.pcm);
  assert.equal(Array.from(first.pcm), Array.from(second.pcm));
});

test('text that looks like an option or holds quotes is spoken, not interpreted', async () => {
  const dashed = await synthesize('-नमस्ते --help', 'hi-IN');
  assert.ok(seconds(dashed) > 0.5);
  const quoted = await synthesize('He said "(voice_kal_diphone)" -- and left; 50% off!', 'en-IN');
  assert.ok(seconds(quoted) > 1);
});

test('an explicit engine voice is honoured, espeak-ng being the English fallback', async () => {
  const espeak = await synthesize('Hello there.', 'en-IN', { voice: 'espeak-ng:en-us' });
  assert.ok(seconds(espeak) > 0.3);
  const withoutFestival = new SpeechSynthesizer({ preferFestival: false });
  const fallback = await withoutFestival.synthesize('Hello there.', 'en-IN');
  assert.ok(seconds(fallback) > 0.3);
});

test('empty text is silence without running a tool; an unknown language is language_not_supported', async () => {
  assert.is((await synthesize('  ', 'hi-IN')).pcm.length, 0);
  try {
    await new SpeechSynthesizer().synthesize('Bonjour', 'fr-FR');
    assert.unreachable('should have been refused');
  } catch (error) {
    assert.instance(error, SynthesisLanguageError);
    assert.is((error as SynthesisLanguageError).code, 'language_not_supported');
  }
});

test.run();
