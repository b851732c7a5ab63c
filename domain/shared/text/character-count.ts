/**
 * How many characters a text has, as the spec's limits ("Max 255 characters") and JSON Schema's `maxLength` count
 * them: Unicode code points. `String.length` counts UTF-16 units, so an emoji (or any character beyond the Basic
 * Multilingual Plane) counted twice and a name of 128 of them was refused as longer than 255.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
