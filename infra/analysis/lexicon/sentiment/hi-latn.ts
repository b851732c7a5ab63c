/**
 * Romanised Hindi (Hinglish) sentiment lexicon. Spelling is not standardised, so common variants are listed
 * (accha / acha / achha). English words in Hinglish speech are covered by the English lexicon, which is always
 * used alongside this one for Latin-script words.
 */
import type { SentimentLexicon } from './sentiment-lexicon.ts';

export const hinglishSentiment: SentimentLexicon = {
  valences: {
    // Positive
    // "accha" alone is mostly a discourse marker ("I see"), so it is mild; "accha hai / laga" is not.
    'accha': 1, 'acha': 1, 'achha': 1, 'achchha': 1, 'acchha': 1, 'achchi': 1, 'acchi': 1, 'achi': 1,
    'achhi': 1, 'acche': 1, 'achhe': 1, 'accha hai': 1.5, 'acha hai': 1.5, 'achha hai': 1.5,
    'accha laga': 2, 'acha laga': 2, 'achha laga': 2, 'accha lag raha': 2, 'acha lag raha': 2,
    'badhiya': 2, 'badiya': 2,
    'badhia': 2, 'badia': 2, 'behtareen': 2.5, 'behtarin': 2.5, 'shandaar': 2.5, 'shandar': 2.5,
    'zabardast': 2.5, 'jabardast': 2.5, 'mast': 2, 'kamaal': 2.5, 'kamal': 2, 'sundar': 1.5,
    'shukriya': 1, 'sukriya': 1, 'shukria': 1, 'dhanyavaad': 1, 'dhanyawad': 1, 'dhanyavad': 1,
    'dhanyawaad': 1, 'meherbani': 1.5, 'meharbani': 1.5, 'khush': 2, 'khushi': 2, 'khus': 2,
    'santusht': 2, 'pasand': 1.5, 'sahi': 1, 'madad': 1, 'sahayata': 1, 'aasaan': 1, 'asaan': 1,
    'aasan': 1, 'suvidha': 1, 'fayda': 1.5, 'faayda': 1.5, 'fayada': 1.5, 'faida': 1.5, 'labh': 1.5,
    'waah': 2, 'wah': 2, 'vah': 2, 'vaah': 2, 'shabash': 2, 'bharosa': 1.5, 'vishwas': 1.5,
    'rahat': 1.5, 'pyaar': 2, 'pyar': 2, 'swagat': 1,
    // Neutral phrases that contain sentiment-looking words
    'koi baat nahi': 0.5, 'koi baat nahin': 0.5, 'galat number': 0, 'late fee': 0,
    'accha ji': 0, 'acha ji': 0, 'accha theek hai': 0, 'acha theek hai': 0,
    // Negative
    'bura': -2, 'buri': -2, 'bure': -2, 'kharab': -2, 'kharaab': -2, 'khraab': -2, 'khrab': -2,
    'bekaar': -2.5, 'bekar': -2.5, 'ghatiya': -3, 'ghatia': -3, 'bakwas': -2.5, 'bakwaas': -2.5,
    'ganda': -2, 'gandi': -2, 'gande': -2, 'faltu': -2, 'faaltu': -2, 'pareshan': -2, 'pareshaan': -2,
    'preshan': -2, 'pareshani': -1.5, 'pareshaani': -1.5, 'dikkat': -1.5, 'diqqat': -1.5,
    'samasya': -1.5, 'takleef': -1.5, 'taklif': -1.5, 'takleef ho rahi': -2, 'mushkil': -1.5,
    'museebat': -2, 'musibat': -2, 'gussa': -2.5, 'ghussa': -2.5, 'naraz': -2, 'naraaz': -2,
    'dukhi': -2, 'dukh': -2, 'nirash': -2.5, 'niraash': -2.5, 'chinta': -1.5, 'dhokha': -3,
    'dhoka': -3, 'dhokhebaaz': -3, 'dhokhadhadi': -3, 'thagi': -3, 'chor': -2.5, 'loot': -2.5,
    'jhooth': -2, 'jhoot': -2, 'jhootha': -2.5, 'jhutha': -2.5, 'shikayat': -1.5, 'shikaayat': -1.5,
    'galat': -1.5, 'galti': -1.5, 'der': -0.5, 'deri': -1, 'asuvidha': -1.5, 'tang': -2,
    'tang aa gaya': -2.5, 'tang aa gayi': -2.5, 'pak gaya': -2, 'pak gayi': -2, 'barbaad': -2.5,
    'barbad': -2.5, 'barbaad mat': -2.5, 'barbad mat': -2.5, 'waste mat': -2, 'pareshan mat karo': -1.5,
    'nuksaan': -2, 'nuksan': -2, 'nukasan': -2, 'badtameez': -2.5, 'badtameezi': -2.5,
    'sharam nahi': -2.5, 'sharam nahin': -2.5, 'darr': -1.5, 'dar lag': -1.5, 'dhamki': -3,
    'dhamkee': -3, 'pagal': -1.5, 'bevakoof': -2.5, 'bewakoof': -2.5, 'maafi': -0.3, 'maaf': -0.3,
    'sunta hi nahi': -2, 'koi sunta nahi': -2, 'sunvai nahi': -2, 'samajh nahi': -1,
    'samajh nahi aa raha': -1, 'bekaar service': -2.5, 'pakau': -2, 'sirdard': -2, 'sar dard': -2,
    // Annoyance without a sentiment word: exasperation at repeated calls and refusing to talk. The refusals
    // carry their negator, so they stay negative instead of reading as a negated negative.
    'roz roz': -1.5, 'baar baar': -1.5, 'bar bar': -1.5, 'kitni baar': -1.5, 'kitni bar': -1.5,
    'baat nahi karni': -1.5, 'baat nahi karna': -1.5, 'baat nahin karni': -1.5,
    // Exasperation and grievance without a sentiment word (issue 18): repeated contact, curt stops.
    'har baar': -1.5, 'har bar': -1.5, 'teesri baar': -1.5, 'tisri baar': -1.5, 'sunte hi nahi': -2,
    'sunte nahi': -2, 'kuch nahi hoga': -1.5, 'arre yaar': -1, 'arey yaar': -1, 'theek nahi': -2,
    'thik nahi': -2,
    // Gratitude for something done, not a closing formula.
    'yaad dilaya': 1.5, 'yaad dila diya': 1.5,
  },
  // "na" is left out: in calls it is a tag particle ("accha hai na?", "bataiye na") far more often than a negator.
  negatorsBefore: ['nahi', 'nahin', 'nai', 'nhi'],
  negatorWordsBefore: 1,
  negatorsAfter: ['nahi', 'nahin', 'nai', 'nhi', 'mat'],
  negatorWordsAfter: 2,
  intensifiers: {
    'bahut': 1.4, 'bohot': 1.4, 'bahot': 1.4, 'bohat': 1.4, 'zyada': 1.3,
    'jyada': 1.3, 'zyaada': 1.3, 'ekdum': 1.3, 'ekdam': 1.3, 'bilkul': 1.3, 'sabse': 1.4, 'kaafi': 1.2,
    'kafi': 1.2, 'bada': 1.2, 'badi': 1.2, 'itna': 1.2, 'itni': 1.2, 'thoda': 0.7, 'thodi': 0.7,
    'zara': 0.8, 'jara': 0.8,

  },
  // "par" is left out: it is the postposition "on" ("WhatsApp par") more often than "but".
  contrastWords: ['lekin', 'magar', 'kintu'],
  // Said twice in a row, these dismiss rather than agree (see SentimentLexicon.flatAgreements).
  flatAgreements: ['haan', 'han', 'haa', 'ha', 'theek hai', 'thik hai', 'accha', 'acha', 'achha', 'ok', 'ji'],
  pastMarkers: ['tha', 'thi', 'thin'],
};
