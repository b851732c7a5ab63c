import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSpeechRecognizer } from '../../../infra/speech/recognizer-from-config.ts';
import { LanguageNotSupportedError } from '../../../infra/speech/port.ts';

test('without SPEECH_API_URL only English is recognised, offline', async () => {
  const recognizer = createSpeechRecognizer({});
  assert.is(recognizer.name, 'pocketsphinx');
  assert.ok(recognizer.supports('en-IN'));
  for (const language of ['hi-IN', 'ta-IN', 'te-IN', 'mr-IN']) assert.not.ok(recognizer.supports(language));
  await recognizer.recognize(new Int16Array(10), 'ta-IN').then(
    () => assert.unreachable(),
    (error) => {
      assert.instance(error, LanguageNotSupportedError);
      assert.match((error as Error).message, /SPEECH_API_URL/);
    },
  );
});

test('with SPEECH_API_URL the server takes the five languages; a language neither knows is refused', async () => {
  const recognizer = createSpeechRecognizer({ apiUrl: 'http://127.0.0.1:9', apiLanguages: ['hi', 'ta'] });
  assert.is(recognizer.name, 'openai-compatible+pocketsphinx');
  assert.ok(recognizer.supports('hi-IN'));
  assert.ok(recognizer.supports('en-IN'), 'English falls back to PocketSphinx');
  assert.not.ok(recognizer.supports('te-IN'));
  await recognizer.recognize(new Int16Array(10), 'te-IN').then(
    () => assert.unreachable(),
    (error) => assert.instance(error, LanguageNotSupportedError),
  );
  assert.ok(createSpeechRecognizer({ apiUrl: 'http://127.0.0.1:9' }).supports('mr-IN'));
});

test.run();
