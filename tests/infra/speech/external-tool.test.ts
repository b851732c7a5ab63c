import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ExternalToolError, OperationAbortedError, runTool, ToolNotInstalledError } from '../../../infra/speech/external-tool.ts';
import { toolThreadId } from '../../../infra/speech/tool-thread.ts';

test('passes stdin and returns stdout; Unicode arguments arrive intact', async () => {
  const { stdout } = await runTool('cat', [], { stdin: 'नमस्ते', timeoutMs: 5_000 });
  assert.is(stdout.toString('utf8'), 'नमस्ते');
  const echoed = await runTool('printf', ['%s', '-வணக்கம் $(x) ; "q"'], { timeoutMs: 5_000 });
  assert.is(echoed.stdout.toString('utf8'), '-வணக்கம் $(x) ; "q"');
  // Started from the main thread, the programs were started by the tool thread (forking stalls the forking thread).
  assert.ok((toolThreadId() ?? 0) > 0);
});

test('a failing program is an ExternalToolError with its status and stderr', async () => {
  try {
    await runTool('ffmpeg', ['-v', 'error', '-i', '/nonexistent/input.wav'], { timeoutMs: 10_000 });
    assert.unreachable('should have failed');
  } catch (error) {
    assert.instance(error, ExternalToolError);
    assert.is((error as ExternalToolError).exitCode, 1);
    assert.match((error as ExternalToolError).stderr, /No such file/);
  }
});

test('a missing program is ToolNotInstalledError; a slow one times out; an abort stops it', async () => {
  await runTool('no-such-speech-tool', [], { timeoutMs: 1_000 }).then(
    () => assert.unreachable(),
    (error) => assert.instance(error, ToolNotInstalledError),
  );
  const started = Date.now();
  await runTool('sleep', ['5'], { timeoutMs: 200 }).then(
    () => assert.unreachable(),
    (error) => assert.match((error as Error).message, /timed out/),
  );
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  await runTool('sleep', ['5'], { timeoutMs: 5_000, signal: controller.signal }).then(
    () => assert.unreachable(),
    (error) => assert.instance(error, OperationAbortedError),
  );
  assert.ok(Date.now() - started < 2_000);
});

test('output beyond the cap kills the program', async () => {
  await runTool('head', ['-c', '100000', '/dev/zero'], { timeoutMs: 5_000, maxStdoutBytes: 1_000 }).then(
    () => assert.unreachable(),
    (error) => assert.match((error as Error).message, /more than 1000 bytes/),
  );
});

test.run();
