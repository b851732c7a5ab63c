/** The reply keywords of each lexicon key (see lexicon-selection.ts). */
import type { LexiconKey } from '../../../../domain/shared/text/lexicon-selection.ts';
import { englishReplies } from './en.ts';
import { hinglishReplies } from './hi-latn.ts';
import { hindiReplies } from './hi.ts';
import { marathiReplies } from './mr.ts';
import type { ReplyLexicon } from './reply-lexicon.ts';
import { tamilReplies } from './ta.ts';
import { teluguReplies } from './te.ts';

export const replyLexicons: Record<LexiconKey, ReplyLexicon> = {
  'en': englishReplies,
  'hi': hindiReplies,
  'hi-latn': hinglishReplies,
  'mr': marathiReplies,
  'ta': tamilReplies,
  'te': teluguReplies,
};
