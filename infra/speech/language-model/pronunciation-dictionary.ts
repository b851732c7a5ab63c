// The words a PocketSphinx dictionary can output (`word PHONES`, alternates as `word(2) PHONES`).
import { readFile } from 'node:fs/promises';

export async function readDictionaryWords(path: string): Promise<Set<string>> {
  const words = new Set<string>();
  for (const line of (await readFile(path, 'utf8')).split('\n')) {
    const word = line.split(/\s/, 1)[0];
    if (word) words.add(word.replace(/\(\d+\)$/, ''));
  }
  return words;
}
