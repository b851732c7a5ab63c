// An analysis worker module that answers its input's `label` after `delayMs` (tests of the order in which the
// analysis pool hands out its threads).
export default async function echoAfterDelay(input: { label: string; delayMs: number }): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, input.delayMs));
  return input.label;
}
