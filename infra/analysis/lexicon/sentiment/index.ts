/** The sentiment lexicon of each lexicon key (see lexicon-selection.ts). */
import type { LexiconKey } from '../../../../domain/shared/text/lexicon-selection.ts';
import { englishSentiment } from './en.ts';
import { hinglishSentiment } from './hi-latn.ts';
import { hindiSentiment } from './hi.ts';
import { marathiSentiment } from './mr.ts';
import type { SentimentLexicon } from './sentiment-lexicon.ts';
import { tamilSentiment } from './ta.ts';
import { teluguSentiment } from './te.ts';

export const sentimentLexicons: Record<LexiconKey, SentimentLexicon> = {
  'en': englishSentiment,
  'hi': hindiSentiment,
  'hi-latn': hinglishSentiment,
  'mr': marathiSentiment,
  'ta': tamilSentiment,
  'te': teluguSentiment,
};
