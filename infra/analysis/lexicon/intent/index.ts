/** The intent rules of each lexicon key (see lexicon-selection.ts). */
import type { LexiconKey } from '../../../../domain/shared/text/lexicon-selection.ts';
import { englishIntents } from './en.ts';
import { hinglishIntents } from './hi-latn.ts';
import { hindiIntents } from './hi.ts';
import type { IntentLexicon } from './intent-lexicon.ts';
import { marathiIntents } from './mr.ts';
import { tamilIntents } from './ta.ts';
import { teluguIntents } from './te.ts';

export const intentLexicons: Record<LexiconKey, IntentLexicon> = {
  'en': englishIntents,
  'hi': hindiIntents,
  'hi-latn': hinglishIntents,
  'mr': marathiIntents,
  'ta': tamilIntents,
  'te': teluguIntents,
};
