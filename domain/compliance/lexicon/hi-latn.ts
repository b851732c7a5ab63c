import type { ComplianceLexicon } from './compliance-lexicon.ts';

/** Romanised Hindi (Hinglish), with the common spelling variants of call transcripts. */
export const hiLatn: ComplianceLexicon = {
  threats: [
    'dhamki de raha', 'dhamki de rahe', 'dhamki samjho', 'aakhri warning', 'last warning', 'dekh lenge', 'dekh lena',
    'dekh lunga', 'sabak sikha', 'haath pair tod', 'hath pair tod', 'haddi tod', 'taang tod', 'maar denge', 'marenge',
    'pitai', 'utha lenge', 'uthwa lenge', 'chhodenge nahi', 'chodenge nahi', 'nahi chhodenge', 'bachoge nahi',
    'ghar aa jayenge', 'ghar aa jaenge', 'ghar aake', 'ghar aakar', 'ghar pe aayenge', 'aadmi bhej', 'ladke bhej',
    'office aa jayenge', 'office mein sabko', 'office mein bata', 'mohalle mein', 'sabko bata denge', 'sabko batayenge',
    'rishtedaron ko', 'padosiyon ko', 'biwi ko bata', 'biwi ko bech', 'badnaam kar', 'beizzati', 'izzat utaar',
    'tamasha karenge', 'besharam', 'sharam nahi aati', 'chor', 'dhokebaaz', 'fraud', 'kamine', 'harami', 'nalayak',
    'bewakoof', 'bhikhari', 'aukaat', 'pachtaoge',
    'natak mat kar*', 'tum jaise log*', 'tumhare jaise log*', 'poori colony', 'colony mein', 'sabko pata chal', 'ghar bhej*', 'apne aadmi', 'ladke bhej*', 'society mein',
  ],
  exposureTargets: ['aapke bachch*', 'aapke bacch*', 'aapki wife', 'aapki biwi', 'aapke pati', 'aapke parivaar', 'aapke gharwalon', 'aapke padosi*', 'aapke office', 'aapke boss', 'aapke rishtedar*', 'tumhare bachch*', 'tumhare bacch*', 'tumhari biwi', 'tumhare gharwalon', 'tumhare padosi*', 'tumhare office', 'tumhare rishtedar*', 'tere bachch*', 'teri biwi', 'tere gharwalon', 'tere office'],
  exposureActions: ['bata*', 'jaake', 'jaakar', 'aake', 'aakar', 'aayenge', 'pahunch*', 'badnaam*'],
  falseClaims: [
    'police', 'arrest', 'giraftar', 'girftar', 'fir', 'jail', 'jel', 'thane', 'warrant', 'non bailable',
    'court se', 'summon', 'aaj hi legal action', 'legal action aaj', 'aaj legal action', 'aaj hi case', 'property jabt',
    'ghar jabt', 'kurki', 'cyber cell', 'crime branch', 'utha ke le jayegi', 'utha ke le jayenge',
    'court mein case', 'court ka notice', 'case daal diya', 'judge sahab',
  ],
  debtTerms: [
    'emi', 'kisht', 'kist', 'kisth', 'baki hai', 'baaki hai', 'baki amount', 'baaki amount', 'bakaya', 'overdue', 'outstanding',
    'pending hai', 'due hai', 'loan ka baki', 'karz', 'udhaar', 'bounce', 'emi baki',
  ],
  identityQuestions: [
    'kya meri baat', 'se baat ho rahi', 'se baat kar raha hoon', 'se baat kar rahi hoon', 'kya aap', 'aap hi', 'ji hain',
    'ji bol rahe', 'bol rahe hain', 'ji baat kar rahe',
  ],
  affirmations: ['haan', 'han', 'haa', 'ji', 'ji haan', 'bolo', 'boliye', 'bataiye', 'main hi', 'bol raha hoon', 'bol rahi hoon', 'yes', 'speaking'],
  thirdParty: ['unka', 'unki', 'unke', 'papa', 'bhai hoon', 'wife hoon', 'beta bol raha', 'ghar pe nahi', 'ghar par nahi', 'wrong number', 'galat number'],
  selfIntroduction: ['mera naam', 'bol raha hoon', 'bol rahi hoon', 'baat kar raha hoon', 'baat kar rahi hoon'],
  organisationIntroduction: ['ki taraf se', 'ki or se', 'se bol raha', 'se bol rahi', 'se baat kar raha', 'se call'],
  purpose: ['ke baare mein', 'ke bare mein', 'ke silsile mein', 'ke sambandh mein', 'regarding', 'yaad dilane', 'renewal', 'policy', 'premium', 'request', 'payment', 'bhugtan'],
  recordingDisclosure: ['record ho rahi', 'record ki ja rahi', 'record kiya ja raha', 'record hogi', 'record ho sakti', 'recording', 'recorded hai', 'call recorded', 'recorded', 'record hoti', 'record hote', 'record ki jaati', 'record kiya jaata'],
  promotional: [
    'offer', 'special offer', 'khaas offer', 'chhoot', 'discount', 'cashback', 'pre approved', 'preapproved', 'naya credit card',
    'naye credit card', 'apply kar lijiye', 'apply kijiye', 'apply karein', 'abhi le lijiye', 'sabse kam byaaj',
    'scheme', 'interested ho', 'interested hain', 'percent pe', 'percent par', 'lena chahenge', 'diwali offer',
    'launch', 'lifetime free', 'activate kar doon', 'activate kar du', 'chahiye to',
  ],
  notPromotional: ['settlement offer', 'settlement mein chhoot', 'byaaj mein chhoot', 'penalty mein chhoot'],
  optOut: [
    'call mat kar*', 'phone mat kar*', 'call mat ki*', 'phone mat ki*', 'call na kar*', 'phone na kar*', 'call nahi karna',
    'phone nahi karna', 'dobara call mat', 'dobara phone mat', 'number hata', 'number delete', 'call karna band',
    'phone karna band', 'pareshan mat kar*',
    'call nahi aana', 'phone nahi aana', 'call nahi chahiye', 'phone nahi chahiye', 'list se nikal', 'number nikal', 'kabhi call mat',
  ],
  callWords: ['call', 'calls', 'phone'],
  stopRequests: ['band karo', 'band kariye', 'band kijiye', 'band karein', 'band kar do', 'band kar dijiye'],
  notOptOut: ['office mein call mat', 'abhi call mat', 'abhi phone mat', 'raat ko call mat', 'subah call mat'],
  negatorsBefore: ['nahi', 'nahin', 'nhi', 'nai', 'mat'],
  negatorWordsBefore: 1,
  negatorsAfter: ['nahi', 'nahin', 'nhi', 'nai', 'mat', 'na'],
  negatorWordsAfter: 6,
  clauseNegators: ['koi nahi', 'kabhi nahi'],
  // Bare "to" is left out: in code-mixed speech it is as often the English "to" ("going to arrest").
  scopeBreaks: ['toh', 'nahi to', 'nahi toh', 'warna', 'varna', 'lekin', 'magar', 'balki', 'phir'],
  coordinators: ['ya', 'aur', 'na', 'or'],
  conditionOpeners: ['agar', 'yadi', 'jab tak'],
};
