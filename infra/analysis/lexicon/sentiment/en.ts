/**
 * English sentiment lexicon for Indian call-centre English: customers of loans, EMIs and insurance policies.
 * Courtesy words are deliberately mild (thanks = 1): a closing "thank you" is politeness, not delight.
 */
import type { SentimentLexicon } from './sentiment-lexicon.ts';

export const englishSentiment: SentimentLexicon = {
  valences: {
    // Positive
    'good': 1.5, 'great': 2.5, 'excellent': 3, 'awesome': 2.5, 'amazing': 2.5, 'wonderful': 2.5,
    'fantastic': 2.5, 'perfect': 2.5, 'superb': 2.5, 'brilliant': 2.5, 'nice': 1.5,
    'lovely': 2, 'best': 2, 'better': 1, 'cool': 1, 'wow': 2, 'happy': 2, 'glad': 2, 'pleased': 2,
    'satisfied': 2, 'delighted': 2.5, 'thrilled': 2.5, 'excited': 2, 'love': 2.5, 'loved': 2.5,
    'enjoy': 1.5, 'enjoyed': 1.5, 'thank': 1, 'thanks': 1, 'thankyou': 1, 'thank you so much': 2,
    'grateful': 2, 'appreciate': 2, 'appreciated': 2, 'helpful': 2, 'useful': 1.5, 'easy': 1,
    'quick': 1, 'smooth': 1.5, 'convenient': 1.5, 'reasonable': 1, 'affordable': 1.5, 'fair': 1,
    'clear': 0.5, 'kind': 1.5, 'polite': 1.5, 'courteous': 1.5, 'patient': 1, 'professional': 1.5,
    'resolved': 1.5, 'solved': 1.5, 'sorted': 1, 'fixed': 1, 'recommend': 1.5, 'trust': 1.5,
    'reliable': 1.5, 'relief': 1.5, 'relieved': 1.5, 'welcome': 1, 'pleasure': 2, 'benefit': 1,
    'benefits': 1, 'congratulations': 2, 'fine': 0.5, 'well done': 2, 'good news': 2,
    'no problem': 1, 'no problems': 1, 'no worries': 1, 'no issue': 1, 'no issues': 1, 'not bad': 1,
    'fabulous': 2.5, 'impressive': 2, 'impressed': 2, 'generous': 1.5, 'lucky': 1.5,
    'super': 2, 'fast': 1, 'prompt': 1.5, 'efficient': 1.5, 'hassle free': 2, 'worth': 1,
    // Neutral phrases that contain sentiment-looking words
    'no thanks': 0, 'no thank you': 0, 'wrong number': 0, 'thank you for your time': 0.5,
    'good morning': 0, 'good afternoon': 0, 'good evening': 0, 'good night': 0, 'good day': 0,
    // "outstanding" is the amount owed in a loan call, not praise.
    'outstanding': 0, 'fine print': 0, 'late fee': 0, 'late fees': 0, 'late payment': 0, 'late charges': 0,
    'kind of': 0, 'pretty much': 0, 'very well': 0.5,
    // Resignation, not praise: "I can pay half now. That's the best I can do."
    'best i can do': 0, 'best i could do': 0,
    // Negative
    'bad': -2, 'worst': -3, 'worse': -2, 'terrible': -3, 'horrible': -3, 'awful': -3, 'pathetic': -3,
    'poor': -2, 'useless': -2.5, 'rubbish': -2.5, 'ridiculous': -2.5, 'disgusting': -3, 'nonsense': -2,
    'hate': -3, 'hated': -3, 'angry': -2.5, 'anger': -2.5, 'furious': -3, 'mad': -2, 'annoyed': -2,
    'annoying': -2, 'irritated': -2, 'irritating': -2, 'frustrated': -2.5, 'frustrating': -2.5,
    'upset': -2, 'disappointed': -2.5, 'disappointing': -2.5, 'disappointment': -2.5, 'unhappy': -2,
    'sad': -1.5, 'worried': -1.5, 'worry': -1, 'worrying': -1.5, 'concerned': -1, 'confused': -1,
    'confusing': -1, "don't understand": -1, 'problem': -1.5, 'problems': -1.5, 'issue': -1,
    'issues': -1, 'trouble': -1.5, 'difficult': -1.5, 'difficulty': -1.5, 'tough': -1, 'hard time': -1.5,
    'complaint': -1.5, 'complaints': -1.5, 'complain': -1.5, 'wrong': -1.5, 'error': -1.5,
    'mistake': -1.5, 'fraud': -3, 'cheat': -3, 'cheated': -3, 'cheating': -3, 'scam': -3, 'lie': -2,
    'lied': -2.5, 'lying': -2.5, 'liar': -3, 'harass': -3, 'harassed': -3, 'harassment': -3,
    'harassing': -3, 'threat': -2.5, 'threatened': -2.5, 'threatening': -2.5, 'rude': -2.5,
    'unprofessional': -2.5, 'delay': -1, 'delayed': -1, 'delays': -1, 'fail': -1.5, 'failed': -1.5,
    'failing': -1.5, 'failure': -2, 'denied': -1.5, 'rejected': -2, 'refused': -1.5, 'stuck': -1.5,
    'waste': -2, 'wasting': -2, 'wasted': -2, "don't waste": -2, 'do not waste': -2, 'unfair': -2, 'expensive': -1,
    'costly': -1,
    'overcharged': -2.5, 'charged twice': -2, 'disturb': -1.5, 'disturbing': -2, 'disturbed': -1.5,
    'bother': -1.5, 'bothering': -1.5, 'nuisance': -2.5, 'spam': -2, 'fed up': -2.5, 'sick of': -2.5,
    'tired of': -2, 'sorry': -0.3, 'apologies': -0.3, 'inconvenience': -1.5, 'unacceptable': -2.5,
    'shameful': -2.5, 'shame': -2, 'lost': -1, 'loss': -1.5, 'scared': -2, 'afraid': -1.5,
    'fear': -1.5, 'stress': -2, 'stressed': -2, 'tension': -1.5, 'pressure': -1, 'struggle': -1.5,
    'struggling': -1.5, 'helpless': -2, 'hopeless': -2.5, 'mess': -2, 'pain': -2, 'painful': -2,
    'slow': -1, 'broken': -1.5, 'damaged': -1.5, 'not working': -1.5, "doesn't work": -1.5,
    'no response': -1.5, 'nobody listens': -2, 'no one listens': -2, 'ignored': -2, 'ignoring': -2,
    'careless': -2, 'incompetent': -2.5, 'hidden charges': -2, 'hidden charge': -2, 'penalty': -1,
    'unfortunately': -1, 'complicated': -1, 'stupid': -2.5, 'idiot': -3, 'cheap': -1, 'dirty': -2,
    'unbearable': -3, 'miserable': -2.5, 'regret': -2, 'sucks': -2.5, 'crap': -2.5, 'hell': -2,
    'damn': -1.5, 'bitter': -2, "that's enough": -1.5, 'bloody': -1.5, 'suffer': -2, 'suffering': -2,
    'misleading': -2.5, 'misled': -2.5,
    // Annoyance without a sentiment word: exasperation at repeated calls and refusing to talk. The refusals
    // carry their negator, so they stay negative instead of reading as a negated negative.
    'these calls': -1.5, 'so many calls': -1.5, 'keep calling': -1.5, 'keeps calling': -1.5,
    'again and again': -1.5, 'every single day': -1.5, 'how many times': -1,
    "don't want to talk": -1.5, 'do not want to talk': -1.5, "don't want to speak": -1.5, 'do not want to speak': -1.5,
    // Exasperation and grievance without a sentiment word (issue 18): repeated contact, pending money, curt stops.
    'charged me twice': -2, 'debited twice': -2, 'deducted twice': -2, 'times already': -1.5, 'third time': -1.5,
    'fourth time': -1.5, 'third call': -1.5, 'fourth call': -1.5, 'told you': -1, 'already told': -1,
    'stop the pitch': -1.5, 'ugh': -1.5, 'how did you even get': -1.5, 'how did you get my number': -1.5,
    'refund pending': -1.5, 'refund is pending': -1.5,
    // Gratitude for something done, not a closing formula.
    'thanks for reminding': 2, 'thank you for reminding': 2, 'thanks for being understanding': 2,
    'understanding': 1, 'want to hear': 1.5,
  },
  negatorsBefore: [
    'not', 'no', 'never', "don't", "doesn't", "didn't", "isn't", "wasn't", "aren't", "weren't",
    "can't", 'cannot', "couldn't", "won't", "wouldn't", "shouldn't", "haven't", "hasn't", "hadn't",
    'nobody', 'nothing', 'none', 'neither', 'nor', 'without', 'hardly', 'barely',
  ],
  negatorWordsBefore: 3,
  negatorsAfter: [],
  negatorWordsAfter: 0,
  intensifiers: {
    'very': 1.3, 'really': 1.3, 'so': 1.2, 'too': 1.2, 'extremely': 1.5, 'totally': 1.3,
    'absolutely': 1.4, 'completely': 1.3, 'highly': 1.3, 'truly': 1.3, 'quite': 1.1, 'most': 1.2,
    'much': 1.2, 'utterly': 1.5, 'seriously': 1.3, 'such': 1.2,
    'slightly': 0.6, 'little': 0.7, 'bit': 0.7, 'somewhat': 0.7, 'fairly': 0.8, 'rather': 0.9,
  },
  contrastWords: ['but', 'however', 'although', 'though'],
  // Said twice in a row, these dismiss rather than agree (see SentimentLexicon.flatAgreements).
  flatAgreements: ['yes', 'yeah', 'ya', 'ok', 'okay', 'fine', 'sure', 'i know', 'right'],
  pastMarkers: ['was', 'were'],
};
