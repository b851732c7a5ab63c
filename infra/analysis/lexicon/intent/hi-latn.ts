/**
 * Romanised Hindi (Hinglish) intent rules, with common spelling variants. English phrases in Hinglish calls
 * are caught by the English rules, which always apply to Latin-script text.
 */
import type { IntentLexicon } from './intent-lexicon.ts';

export const hinglishIntents: IntentLexicon = {
  phrases: {
    interest: [
      ['renew karwana', 3], ['renew karna', 3], ['renew kar do', 3], ['renew kar dijiye', 3], ['process shuru', 2],
      ['process kar do', 2], ['shuru kar dijiye', 2], ['shuru kar do', 2], ['kar dijiye', 1], ['details bhej', 2],
      ['detail bhej', 2], ['bhej do', 1], ['bhej dijiye', 1], ['le lunga', 2], ['le lungi', 2], ['le loonga', 2],
      ['lena hai', 2], ['lena chahta', 2], ['lena chahti', 2], ['apply kar', 2], ['aur bataiye', 1],
      ['haan kar do', 2], ['interest hai', 2], ['dilchaspi', 2], ['aage badhao', 2], ['aage badhaiye', 2],
      ['details bhej', 2], ['detail bhej', 2], ['whatsapp pe bhej', 2], ['brochure bhej', 2], ['apply karunga', 2], ['apply karungi', 2], ['le lunga', 2], ['le lungi', 2], ['renewal kar do', 3], ['renew kar do', 3], ['aage badhana', 2], ['aage badha do', 2],
    ],
    not_interested: [
      ['nahi chahiye', 3], ['nahin chahiye', 3], ['nai chahiye', 3], ['nhi chahiye', 3], ['zarurat nahi', 2],
      ['zaroorat nahi', 2], ['jarurat nahi', 2], ['interest nahi', 3], ['interested nahi', 3], ['nahi lena', 3],
      ['nahin lena', 3], ['mana kar', 2], ['rehne do', 2], ['rehne dijiye', 2], ['nahi karna', 1], ['phir kabhi', 1],
      ['nahi chahiye', 3], ['zarurat nahi', 2], ['interest nahi', 3], ['nahi lena', 3],
    ],
    payment_promise: [
      ['kar dunga', 1], ['kar dungi', 1], ['bhar dunga', 3], ['bhar dungi', 3], ['jama kar dunga', 3],
      ['jama kar dungi', 3], ['bhej dunga', 2], ['bhej dungi', 2], ['de dunga', 2], ['de dungi', 2],
      ['de sakta hoon', 2], ['de sakti hoon', 2], ['pay kar dunga', 3], ['pay kar dungi', 3], ['payment kar dunga', 3],
      ['payment kar dungi', 3], ['pakka', 1], ['tak pay', 2], ['tak bhar', 2], ['tak jama', 2], ['tak kar dunga', 3],
      ['paise bhej', 2], ['transfer kar', 2], ['chuka dunga', 3], ['chuka dungi', 3], ['half de', 2], ['aadha de', 2],
      ['baaki de', 2], ['baki de', 2],
      ['pay kar dunga', 3], ['pay kar dungi', 3], ['bhar dunga', 3], ['bhar dungi', 3], ['jama kar dunga', 3], ['payment kar dunga', 3], ['kar dunga payment', 3], ['ho jayega', 1],
    ],
    payment_query: [
      ['kitna outstanding', 3], ['kitna baaki', 3], ['kitna bakaya', 3], ['bakaya', 2], ['kitni emi', 3],
      ['emi baaki', 3], ['emi kitni', 3], ['kitna bharna', 3], ['kitna dena', 3], ['kitne paise', 2], ['kitna', 1],
      ['kist', 1], ['kisht', 1], ['pay kar sakta', 2], ['pay kar sakti', 2], ['kaise pay', 3], ['payment kaise', 3],
      ['upi se', 2],
      ['outstanding kitna', 3], ['late fee kitni', 3], ['kitni emi', 3], ['upi se', 2], ['kaise bharu', 3], ['emi bhar sakti', 2], ['emi bhar sakta', 2],
    ],
    policy_query: [
      ['policy mein', 2], ['cover hai kya', 3], ['cover hota', 3], ['cover hoga', 3], ['kya cover', 3],
      ['claim kaise', 3], ['bonus kitna', 3], ['premium kitna', 1], ['shamil hai', 1],
      ['policy mein', 2], ['cover hai', 2], ['waiting period', 3], ['maternity', 2],
    ],
    complaint: [
      ['shikayat', 3], ['do baar kat', 3], ['double kat', 3], ['paisa wapas', 2], ['paise wapas', 2],
      ['paisa vapas', 2], ['nahi mila', 1], ['nahi mile', 1], ['bekaar service', 3], ['bekar service', 3],
      ['kharab service', 3], ['service kharab', 3], ['ghatiya', 2], ['kharab', 1], ['bekaar', 1], ['bekar', 1],
      ['dhokha', 3], ['koi sunta', 2], ['sunvai nahi', 2], ['naraz', 1], ['pareshan kar', 2], ['kaam nahi kar raha', 2],
      ['galat charge', 3], ['fail ho raha', 2], ['kat gaya', 1],
      ['refund nahi aaya', 3], ['abhi tak nahi aaya', 2], ['badtameezi', 2], ['paisa wapas', 2],
    ],
    callback_request: [
      ['baad mein call', 3], ['baad me call', 3], ['baad mein phone', 3], ['baad mein baat', 3], ['baad me baat', 3],
      ['ke baad call', 3], ['kal call', 3], ['kal phone', 3], ['kal baat', 3], ['shaam ko call', 3],
      ['sham ko call', 3], ['shaam ko phone', 3], ['subah call', 3], ['phir se call', 2], ['phir call', 2],
      ['abhi busy', 2], ['busy hoon', 2], ['busy hun', 2], ['meeting mein', 2], ['gaadi chala raha', 2],
      ['drive kar raha', 2], ['abhi baat nahi', 2], ['abhi time nahi', 2], ['thodi der mein', 2], ['ghante baad', 2],
      ['baad mein', 1], ['baad me', 1],
      ['weekend pe call', 3], ['call karoge', 2], ['weekend pe', 1],
      ['baad mein call', 3], ['kal call', 3], ['shaam ko call', 3], ['baje ke baad', 3], ['abhi busy', 2], ['time nahi hai', 2], ['call karna', 1],
    ],
    human_agent_request: [
      ['kisi insaan', 3], ['insaan se baat', 3], ['insan se baat', 3], ['aadmi se baat', 3], ['asli aadmi', 3],
      ['officer se', 3], ['adhikari se', 3], ['manager se', 3], ['senior se', 3], ['agent se', 3],
      ['customer care se baat', 3], ['machine se', 3], ['kisi se baat karwa', 3], ['baat karwa do', 2],
      ['baat karwaiye', 2], ['baat karao', 2],
      ['insaan se baat', 3], ['executive se baat', 3], ['asli aadmi', 3],
    ],
    dnd_request: [
      ['call mat', 3], ['phone mat', 3], ['call na karein', 3], ['call nahi karna', 3], ['phone nahi karna', 3],
      ['number hatao', 3], ['number hata do', 3], ['list se hatao', 3], ['list se hata', 3], ['number delete', 3],
      ['aage se call', 2], ['baar baar call', 2], ['roz roz call', 2], ['pareshan mat karo', 2],
      ['call mat karna', 3], ['number hata', 3], ['dnd mein', 3],
    ],
    wrong_number: [
      ['galat number', 3], ['yahan koi', 2], ['koi nahi rehta', 2], ['nahi jaanta', 2], ['nahi janta', 2],
      ['nahi jaanti', 2], ['ko nahi jaanta', 3], ['ko nahi janta', 3], ['mera number hai', 2],
      ['number mera hai', 2], ['yeh number mera', 2], ['unka number nahi', 3],
      ['main woh nahi', 2],
      ['record update karo', 2], ['naam ka koi', 3], ['koi yahan nahi', 3], ['mera naya number', 2], ['yahan nahi hai', 2],
      ['galat number', 3], ['koi nahi hai', 2],
    ],
  },
  loanWords: ['loan', 'karz', 'karza'],
  renewalWords: [
    'renew', 'renewal', 'extend', 'badhwana', 'badhwa do', 'aage badha*', 'aage karwa*', 'phir se chalu', 'dobara chalu',
  ],
  formWords: ['form', 'forms', 'application'],
};
