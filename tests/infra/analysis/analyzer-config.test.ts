// The LLM analyzer's configuration: validated at start with clear messages, defaults, and the offline analysis
// left alone when ANALYZER_API_URL is unset.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pino } from 'pino';
import { loadConfig } from '../../../infra/config.ts';
import { transcriptAnalysisFromConfig } from '../../../infra/analysis/analysis-from-config.ts';
import { inThreadTranscriptAnalysis } from '../../../infra/analysis/in-thread-analysis.ts';

const refused = (environment: Record<string, string>, pattern: RegExp) => assert.throws(() => loadConfig(environment), pattern, JSON.stringify(environment));

test('defaults: no analyzer; with a URL and a model, the documented limits', () => {
  assert.is(loadConfig({}).ANALYZER_API_URL, undefined);
  const config = loadConfig({ ANALYZER_API_URL: 'https://llm.example.net/v1', ANALYZER_MODEL: 'qwen2.5:7b-instruct' });
  assert.is(config.ANALYZER_TIMEOUT_SECONDS, 30);
  assert.is(config.ANALYZER_CONCURRENCY, 2);
  assert.is(config.ANALYZER_MAX_INPUT_TOKENS, 6_000);
  assert.is(config.ANALYZER_MAX_OUTPUT_TOKENS, 800);
});

test('clear errors at start', () => {
  refused({ ANALYZER_API_URL: 'llm.local:8000', ANALYZER_MODEL: 'm' }, /ANALYZER_API_URL: an http:\/\/ or https:\/\/ URL/);
  refused({ ANALYZER_API_URL: 'ftp://llm.example.net/', ANALYZER_MODEL: 'm' }, /ANALYZER_API_URL: an http:\/\/ or https:\/\/ URL/);
  refused({ ANALYZER_API_URL: 'https://user:pass@llm.example.net/', ANALYZER_MODEL: 'm' }, /ANALYZER_API_URL: .*without user:password/);
  refused({ ANALYZER_API_URL: 'https://llm.example.net/' }, /ANALYZER_MODEL: required with ANALYZER_API_URL/);
  // The outbound guard would refuse it on every job: said at start instead.
  refused({ ANALYZER_API_URL: 'http://127.0.0.1:11434', ANALYZER_MODEL: 'm' }, /ANALYZER_API_URL: a loopback or private address is refused unless ALLOW_PRIVATE_TARGETS=true/);
  refused({ ANALYZER_API_URL: 'http://localhost:11434', ANALYZER_MODEL: 'm' }, /ALLOW_PRIVATE_TARGETS=true/);
  refused({ ANALYZER_API_URL: 'http://[::1]:8000/v1', ANALYZER_MODEL: 'm' }, /ALLOW_PRIVATE_TARGETS=true/);
  refused({ ANALYZER_API_URL: 'http://10.0.0.5:8000/v1', ANALYZER_MODEL: 'm' }, /ALLOW_PRIVATE_TARGETS=true/);
  assert.is(loadConfig({ ANALYZER_API_URL: 'http://127.0.0.1:11434', ANALYZER_MODEL: 'm', ALLOW_PRIVATE_TARGETS: 'true' }).ANALYZER_MODEL, 'm');
  refused({ ANALYZER_API_URL: 'https://llm.example.net/', ANALYZER_MODEL: 'm', ANALYZER_TIMEOUT_SECONDS: '0' }, /ANALYZER_TIMEOUT_SECONDS/);
  refused({ ANALYZER_API_URL: 'https://llm.example.net/', ANALYZER_MODEL: 'm', ANALYZER_CONCURRENCY: '0' }, /ANALYZER_CONCURRENCY/);
  refused({ ANALYZER_API_URL: 'https://llm.example.net/', ANALYZER_MODEL: 'm', ANALYZER_MAX_INPUT_TOKENS: '100' }, /ANALYZER_MAX_INPUT_TOKENS/);
});

test('the error message never holds the API key', () => {
  try {
    loadConfig({ ANALYZER_API_URL: 'nope', ANALYZER_API_KEY: 'sk-secret-value-123', ANALYZER_MODEL: 'm' });
    assert.unreachable();
  } catch (error) {
    assert.not.ok((error as Error).message.includes('sk-secret-value-123'));
  }
});

test('without ANALYZER_API_URL the offline analysis is used as it is', () => {
  const offline = inThreadTranscriptAnalysis();
  const logger = pino({ level: 'silent' });
  assert.is(transcriptAnalysisFromConfig(loadConfig({}), offline, logger), offline);
  assert.is.not(transcriptAnalysisFromConfig(loadConfig({ ANALYZER_API_URL: 'https://llm.example.net/v1', ANALYZER_MODEL: 'm' }), offline, logger), offline);
});

test.run();
