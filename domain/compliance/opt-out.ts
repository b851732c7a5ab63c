/**
 * Did the customer ask not to be called again ("don't call me", "मुझे फोन मत करना", "call mat karna",
 * "கால் பண்ணாதீங்க", "కాల్ చేయకండి", "फोन करू नका")? The platform suppresses the number (DPDP Act 2023: consent
 * may be withdrawn; TRAI TCCCPR: the customer's preference); any later call to it is a critical violation there.
 * Only the customer's turns count: an agent saying "we will not call you again" is not an opt-out.
 */
import type { TranscriptSegment } from '../transcription-job.ts';
import { findPhrase } from './phrase-finder.ts';
import type { Evidence } from './rule.ts';
import { evidenceOf, nonAgentSegments, turnsWith, turnsWithPair } from './turn-search.ts';

export function detectOptOut(segments: readonly TranscriptSegment[], language: string): Evidence | null {
  // The phrases carry their own negator ("मत", "don't"), so negation scope does not apply.
  // "Don't call me today, call tomorrow" defers the call: a turn asking for a call back is no opt-out.
  const customer = nonAgentSegments(segments).filter((segment) => findPhrase(segment.text, language, 'callBacks', { negatable: false, acrossScopeBreaks: true }) === null);
  // A clause that names when to call ("don't call me during office hours") limits the calls: it yields.
  const phrase = turnsWith(customer, language, 'optOut', { negatable: false, except: 'notOptOut', yieldsTo: 'callTimes' })[0];
  // Said in other words: "stop ringing me", "फोन करना बंद करो", "போன் பண்றத நிறுத்துங்க".
  // Not negation-aware: the request's own "मत", "கூடாது" would read as negating the call word.
  const stopRequest = turnsWithPair(customer, language, 'callWords', 'stopRequests', { negatable: false, yieldsTo: 'callTimes' })[0];
  const first = [phrase, stopRequest].filter((hit) => hit !== undefined).sort((a, b) => a.segment.start_time - b.segment.start_time)[0];
  return first ? evidenceOf(first.segment) : null;
}
