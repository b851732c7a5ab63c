/**
 * Who is the agent and who is the customer in a transcript. The spec labels two-party transcripts `agent` and
 * `customer`, and uses `speaker_1`, `speaker_2`, ... when there are more speakers.
 */
/** What speaker attribution reads of a transcript segment (any segment type with these fields will do). */
export interface SpeakerTurn {
  speaker: string;
  start_time: number;
}

const AGENT = 'agent';
const CUSTOMER = 'customer';

function hasSpeaker(segments: readonly SpeakerTurn[], label: string): boolean {
  return segments.some((segment) => segment.speaker.toLowerCase() === label);
}

/**
 * The customer's segments: those labelled `customer`; failing that, everyone but the `agent`; failing that
 * (no labels we recognise), all segments.
 */
export function customerSegments<S extends SpeakerTurn>(segments: readonly S[]): S[] {
  if (hasSpeaker(segments, CUSTOMER)) return segments.filter((s) => s.speaker.toLowerCase() === CUSTOMER);
  if (hasSpeaker(segments, AGENT)) return segments.filter((s) => s.speaker.toLowerCase() !== AGENT);
  return [...segments];
}

/** The label of the agent: `agent` if present; else whoever is not `customer`; else whoever spoke first. */
export function agentSpeaker(segments: readonly SpeakerTurn[]): string | null {
  if (hasSpeaker(segments, AGENT)) return segments.find((s) => s.speaker.toLowerCase() === AGENT)!.speaker;
  const inTimeOrder = [...segments].sort((a, b) => a.start_time - b.start_time);
  if (hasSpeaker(segments, CUSTOMER)) {
    return inTimeOrder.find((s) => s.speaker.toLowerCase() !== CUSTOMER)?.speaker ?? null;
  }
  // Unlabelled speakers: in an outbound call the agent (or the voice bot) opens the conversation.
  return inTimeOrder[0]?.speaker ?? null;
}

export function agentSegments<S extends SpeakerTurn>(segments: readonly S[]): S[] {
  const agent = agentSpeaker(segments);
  return agent === null ? [] : segments.filter((s) => s.speaker === agent);
}

/** Everyone's segments but the agent's (the customer side of a QA check). */
export function nonAgentSegments<S extends SpeakerTurn>(segments: readonly S[]): S[] {
  const agent = agentSpeaker(segments);
  return segments.filter((s) => s.speaker !== agent);
}
