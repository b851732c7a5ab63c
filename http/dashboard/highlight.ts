/**
 * The search API's highlighted text (`**term**`, markdown of the original escaped with `\`) as plain runs, each
 * marked or not; the page renders them as escaped text inside `<mark>` or not, so no markup from a transcript
 * can reach the page.
 */
export function highlightRuns(text: string): { text: string; marked: boolean }[] {
  const runs: { text: string; marked: boolean }[] = [];
  let current = '';
  let marked = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\\' && index + 1 < text.length) {
      current += text[++index];
    } else if (char === '*' && text[index + 1] === '*') {
      if (current) runs.push({ text: current, marked });
      current = '';
      marked = !marked;
      index++;
    } else {
      current += char;
    }
  }
  if (current) runs.push({ text: current, marked });
  return runs;
}
