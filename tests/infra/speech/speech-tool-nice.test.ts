import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../../infra/config.ts';
import { runTool } from '../../../infra/speech/external-tool.ts';
import { setSpeechToolNice } from '../../../infra/speech/tool-thread.ts';

// The programs the server starts (festival, ffmpeg, ...) run below the event loop (SPEECH_TOOL_NICE): a neighbour's
// calls synthesising prompts took more than a core, and the thread serving requests waited behind them.

test('SPEECH_TOOL_NICE defaults to 10 and bounds to 0-19', () => {
  assert.is(loadConfig({}).SPEECH_TOOL_NICE, 10);
  assert.is(loadConfig({ SPEECH_TOOL_NICE: '0' }).SPEECH_TOOL_NICE, 0);
  assert.throws(() => loadConfig({ SPEECH_TOOL_NICE: '-5' }));
  assert.throws(() => loadConfig({ SPEECH_TOOL_NICE: '20' }));
});

test('a program started for the main thread runs at the configured nice value; this thread keeps its own', async () => {
  if (process.platform !== 'linux') return;
  setSpeechToolNice(7);
  // coreutils `nice` with no arguments prints the niceness it runs at.
  const { stdout } = await runTool('nice', [], { timeoutMs: 5_000 });
  assert.is(stdout.toString('utf8').trim(), '7');
  const own = await import('node:os').then((os) => os.getPriority());
  assert.is(own, 0, 'the event loop thread is not lowered');
});

test.run();
