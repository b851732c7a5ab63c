/**
 * Whether a turn says a name from the campaign's script variables (the agent's, the lender's). Each word of the
 * name matches as a prefix, so inflected or suffixed forms count ("சுகம் ஃபைனான்ஸ்லிருந்து" says "சுகம் ஃபைனான்ஸ்");
 * the first word alone also counts when it has at least three letters ("Ravi here" for "Ravi Kumar", "Sugam" for
 * "Sugam Finance"). Names are matched in the script they are written in: a Latin lender name is not found in a
 * Devanagari transcript (a documented limit).
 */
import { compilePhrase, findPhrase, tokenize } from '../shared/text/normalize.ts';

const MIN_FIRST_WORD_LETTERS = 3;

export function saysName(text: string, name: string, language: string): boolean {
  const words = name.trim().split(/\s+/).filter((word) => word.length > 0);
  if (words.length === 0) return false;
  const patterns = [words.map((word) => `${word}*`).join(' ')];
  if (words.length > 1 && [...words[0]!].length >= MIN_FIRST_WORD_LETTERS) patterns.push(`${words[0]}*`);
  const spoken = tokenize(text, language);
  return patterns.some((pattern) => {
    const compiled = compilePhrase(pattern, language);
    return compiled.length > 0 && findPhrase(spoken, compiled) >= 0;
  });
}
