/**
 * Stream names are `<category>-<id>` (`call-cal_...`, `campaign-cmp_...`). Each aggregate module names its category
 * once, with this pair: the stream of an id, and the id of a stream (for readers that get an event and need to know
 * whose it is).
 */
export function streamCategory(category: string): { stream(id: string): string; idOf(stream: string): string } {
  const prefix = `${category}-`;
  return {
    stream: (id) => `${prefix}${id}`,
    idOf: (stream) => {
      if (!stream.startsWith(prefix)) throw new Error(`${stream} is not a ${category} stream`);
      return stream.slice(prefix.length);
    },
  };
}
