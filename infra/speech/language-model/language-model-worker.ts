// Worker-thread task (call-domain-models.ts): builds one call-domain model. Reading the general model (about
// 15 s of CPU) and mixing run here, never on the thread that serves requests; the pruned general model stays in
// this thread's memory (about 150 MB) until the pool lets the idle thread go.
import { buildCallDomainModel, DEBIAN_DICTIONARY, type CallDomainModelOptions } from './call-domain-model.ts';
import { callDomainSentences, type CallDomainText } from './call-domain-corpus.ts';
import { readDictionaryWords } from './pronunciation-dictionary.ts';

export interface LanguageModelTask {
  text: CallDomainText;
  options: CallDomainModelOptions;
  dictionaryPath?: string;
}

let dictionary: Promise<Set<string>> | null = null;

export default async function buildLanguageModel(task: LanguageModelTask): Promise<string> {
  dictionary ??= readDictionaryWords(task.dictionaryPath ?? DEBIAN_DICTIONARY);
  return buildCallDomainModel(callDomainSentences(task.text, await dictionary), task.options);
}
