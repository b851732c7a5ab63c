/**
 * pdfkit has no font fallback: a font draws only the scripts it has glyphs for. Text is split into runs by script
 * (Devanagari, Tamil, Telugu, else Latin), each drawn with the Noto font of its script. Characters common to all
 * scripts (spaces, digits, punctuation) and combining marks stay in the run they follow, so a Hindi phrase keeps its
 * spaces and shaping in one run.
 */
export type Script = 'latin' | 'devanagari' | 'tamil' | 'telugu';

function scriptOf(codePoint: number): Script | null {
  if ((codePoint >= 0x0900 && codePoint <= 0x097f) || (codePoint >= 0xa8e0 && codePoint <= 0xa8ff) || codePoint === 0x1cd0) return 'devanagari';
  if (codePoint >= 0x0b80 && codePoint <= 0x0bff) return 'tamil';
  if (codePoint >= 0x0c00 && codePoint <= 0x0c7f) return 'telugu';
  // Letters of other scripts (Latin and the rest) go to the Latin font; neutral characters join the current run.
  if (/\p{L}/u.test(String.fromCodePoint(codePoint))) return 'latin';
  if (codePoint === 0x200c || codePoint === 0x200d) return null; // joiners belong to the run they are in
  return null;
}

export function scriptRuns(text: string): Array<{ script: Script; text: string }> {
  const runs: Array<{ script: Script; text: string }> = [];
  let pending = '';
  for (const character of text) {
    const script = scriptOf(character.codePointAt(0)!);
    const last = runs[runs.length - 1];
    if (script === null) {
      if (last) last.text += character;
      else pending += character;
      continue;
    }
    if (last && last.script === script) last.text += character;
    else runs.push({ script, text: pending + character });
    pending = '';
  }
  if (pending !== '') runs.push({ script: 'latin', text: pending });
  return runs;
}
