import type { ComplianceLexicon } from './compliance-lexicon.ts';

/** English (Indian English as spoken on collection, insurance and sales calls). */
export const en: ComplianceLexicon = {
  threats: [
    'threaten you', 'threatening you', 'this is a threat', 'this is my last warning', 'last warning',
    'watch your back', 'we know where you live', 'know where you live', 'you will regret', "you'll regret",
    'you will be sorry', 'see what happens', 'teach you a lesson', 'break your legs', 'break your bones',
    'beat you', 'hurt you', 'hurt your family', 'kill you', 'finish you', 'our boys', 'send our boys', 'send our men',
    'send people to your house', 'come to your house', 'come to your home', 'come to your office', 'visit your office',
    'tell your neighbours', 'tell your neighbors', 'tell your manager', 'tell your boss', 'tell your colleagues',
    'tell your family', 'tell your relatives', 'tell everyone', 'inform your office', 'inform your employer',
    'call your wife', 'call your husband', 'call your father', 'call your relatives', 'call your neighbours',
    'call your office', 'call your references', 'shame you', 'humiliate you', 'embarrass you', 'put up posters',
    'your photo', 'social media', 'shameless', 'cheat', 'fraud', 'thief', 'liar', 'useless', 'idiot', 'stupid',
    'pathetic', 'bloody', 'bastard', 'rascal', 'beggar', 'no shame', 'what kind of person you are',
  ],
  falseClaims: [
    'police', 'cops', 'arrest', 'arrested', 'fir', 'police case', 'police complaint', 'criminal case', 'jail', 'prison',
    'behind bars', 'warrant', 'arrest warrant', 'non bailable', 'court summons', 'summons today', 'from the court',
    'seize your property', 'seize your house', 'attach your property', 'confiscate', 'legal action today',
    'legal action will be taken today', 'legal action today itself', 'case will be filed today', 'cyber cell',
    'crime branch', 'blacklisted for life', 'cibil will be zero',
  ],
  debtTerms: [
    'emi', 'emis', 'overdue', 'outstanding', 'dues', 'due amount', 'pending amount', 'amount pending', 'is pending',
    'still pending', 'arrears', 'instalment', 'installment', 'instalments', 'installments', 'loan amount',
    'repayment', 'bounced', 'default', 'defaulted', 'unpaid', 'payment is due', 'clear his dues', 'clear her dues',
  ],
  identityQuestions: [
    'am i speaking with', 'am i speaking to', 'am i talking to', 'may i speak with', 'may i speak to', 'can i speak to',
    'can i speak with', 'could i speak to', 'could i speak with', 'is this mr', 'is this ms', 'is this mrs', 'is this miss',
    'is that mr', 'is that ms', 'are you mr', 'are you ms', 'speaking with mr', 'speaking with ms', 'is this sir',
    'is this madam', 'confirm your name', 'confirm your date of birth', 'am i speaking',
  ],
  affirmations: ['yes', 'yeah', 'yep', 'speaking', 'this is he', 'this is she', 'that is me', "that's me", 'it is', 'correct', 'right'],
  thirdParty: [
    'his wife', 'her husband', 'his brother', 'his son', 'his father', 'her son', 'her father', 'his colleague',
    'her colleague', 'his friend', 'wrong number', 'not here', 'not at home', 'is not available', "isn't here",
    "i'm his", "i'm her", 'i am his', 'i am her', 'who is this for',
  ],
  selfIntroduction: ['my name is', 'this is', 'myself'],
  organisationIntroduction: ['calling from', 'calling on behalf of', 'on behalf of', 'here from', 'speaking from'],
  purpose: [
    'calling about', 'calling regarding', 'regarding', 'about your', 'calling to', 'reason for my call', 'reason for this call',
    'renewal', 'reminder', 'request', 'follow up', 'update', 'policy', 'premium',
  ],
  recordingDisclosure: [
    'call is being recorded', 'call is recorded', 'call may be recorded', 'call will be recorded', 'being recorded',
    'is recorded', 'is being recorded', 'recorded for quality', 'recorded for training', 'call recording', 'we record this call',
  ],
  promotional: [
    'special offer', 'exclusive offer', 'limited period offer', 'limited time offer', 'limited period', 'offer on',
    'home loan offer', 'loan offer', 'card offer', 'pre approved', 'preapproved', 'cashback', 'cash back', 'discount',
    'new credit card', 'upgrade your', 'upgrade to', 'apply today', 'apply now', 'would you like to apply',
    'would you like to buy', 'buy now', 'free gift', 'lowest interest', 'special rate', 'zero joining fee', 'welcome voucher',
  ],
  notPromotional: ['settlement offer', 'settlement discount', 'one time settlement'],
  optOut: [
    "don't call me", 'do not call me', 'dont call me', 'stop calling', 'stop calling me', 'never call me', "don't call again",
    'do not call again', "don't call me again", 'do not call me again', 'remove my number', 'delete my number',
    'take my number off', 'take me off', 'off your list', "don't contact me", 'do not contact me', 'no more calls',
    'unsubscribe', 'do not disturb me again', "don't ever call",
  ],
  negatorsBefore: ['not', 'no', 'never', "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "won't", "can't", 'cannot', "wouldn't", "shouldn't", 'without'],
  negatorWordsBefore: 3,
  negatorsAfter: ['not', 'never', "won't", "don't", "isn't", "aren't", "doesn't", "can't", 'cannot'],
  negatorWordsAfter: 3,
  clauseNegators: ['nobody', 'no one', 'noone', 'nothing', 'never', 'neither', 'none'],
  scopeBreaks: ['then', 'otherwise', 'or else', 'else', 'but', 'and then', 'so that'],
  conditionOpeners: ['if', 'unless'],
};
