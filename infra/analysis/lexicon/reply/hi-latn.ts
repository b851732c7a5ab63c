/** Romanised Hindi (Hinglish) reply keywords, with common spelling variants. */
import type { ReplyLexicon } from './reply-lexicon.ts';

export const hinglishReplies: ReplyLexicon = {
  affirm: [
    'haan', 'han', 'haa', 'haanji', 'haan ji', 'ji', 'ji haan', 'theek hai', 'thik hai', 'theek', 'bilkul', 'zaroor',
    'jaroor', 'batao', 'bataiye', 'boliye', 'bolo', 'chalega', 'manzoor', 'sahi hai', 'aage bataiye',
    'interested hoon', 'koi baat nahi', 'koi dikkat nahi',
  ],
  deny: [
    'nahi', 'nahin', 'nai', 'na', 'nahi chahiye', 'nahin chahiye', 'nahi ji', 'zarurat nahi', 'zaroorat nahi',
    'interest nahi', 'mana', 'rehne do', 'rehne dijiye', 'nahi lena', 'bilkul nahi', 'ji nahi',
  ],
  callback_later: [
    'baad mein', 'baad me', 'abhi nahi', 'abhi busy', 'busy hoon', 'busy hu', 'kal baat', 'kal call', 'kal phone',
    'shaam ko', 'sham ko', 'subah', 'thodi der baad', 'meeting mein', 'gaadi chala raha', 'phir kabhi',
    'abhi time nahi', 'ghante baad',
  ],
  request_human: [
    'insaan', 'insan', 'kisi insaan se', 'aadmi se baat', 'officer', 'adhikari', 'manager', 'agent', 'customer care',
    'asli aadmi', 'machine', 'robot', 'connect karo', 'baat karwao', 'baat karwa do', 'baat karao',
  ],
  stop_calling: [
    'call mat', 'phone mat', 'number hata', 'number hatao', 'list se hata', 'list se hatao', 'dnd', 'pareshan mat',
    'call nahi karna', 'phone nahi karna',
  ],
  wrong_person: [
    'galat number', 'is naam ka koi nahi', 'yahan koi nahi', 'main woh nahi', 'main vo nahi', 'galat jagah',
    'galat aadmi', 'nahi jaanta', 'nahi janta', 'nahi jaanti',
  ],
};
