/**
 * Function words per lexicon key, ignored when the summary compares sentences: two sentences are similar when
 * they share content words (loan, EMI, renewal), not "the" and "है".
 */
import type { LexiconKey } from '../../../domain/shared/text/lexicon-selection.ts';

export const stopwords: Record<LexiconKey, readonly string[]> = {
  'en': [
    'a', 'an', 'the', 'and', 'or', 'but', 'is', 'are', 'was', 'were', 'be', 'been', 'am', 'i', 'im', 'you', 'your',
    'we', 'our', 'he', 'she', 'it', 'its', 'they', 'them', 'me', 'my', 'this', 'that', 'these', 'those', 'to', 'of',
    'in', 'on', 'at', 'for', 'with', 'by', 'from', 'as', 'so', 'do', 'does', 'did', 'have', 'has', 'had', 'will',
    'would', 'can', 'could', 'should', 'shall', 'may', 'just', 'yes', 'no', 'ok', 'okay', 'sir', 'madam', 'maam',
    'please', 'what', 'which', 'who', 'how', 'there', 'here', 'then', 'now', 'also', 'about', 'if', 'not', 'ill',
    'its', 'thats', 'dont', 'very', 'really', 'hello', 'hi', 'oh', 'hmm', 'right', 'sure',
  ],
  'hi-latn': [
    'hai', 'hain', 'tha', 'thi', 'the', 'ho', 'hoon', 'hun', 'main', 'mai', 'mein', 'me', 'mujhe', 'aap', 'aapka',
    'aapki', 'aapke', 'tum', 'ka', 'ki', 'ke', 'ko', 'se', 'par', 'pe', 'aur', 'ya', 'ye', 'yeh', 'woh', 'vo', 'jo',
    'to', 'toh', 'bhi', 'hi', 'ji', 'haan', 'han', 'nahi', 'kya', 'kar', 'karo', 'karna', 'kuch', 'koi', 'ek', 'sir',
    'madam', 'accha', 'acha', 'theek', 'thik', 'na', 'raha', 'rahi', 'rahe', 'gaya', 'gayi', 'diya', 'abhi',
  ],
  'hi': [
    'है', 'हैं', 'था', 'थी', 'थे', 'हो', 'हूं', 'मैं', 'में', 'मुझे', 'मेरा', 'मेरी', 'आप', 'आपका', 'आपकी', 'आपके',
    'का', 'की', 'के', 'को', 'से', 'पर', 'और', 'या', 'ये', 'यह', 'वो', 'वह', 'जो', 'तो', 'भी', 'ही', 'जी', 'हां',
    'नहीं', 'क्या', 'कर', 'करना', 'कुछ', 'कोई', 'एक', 'सर', 'मैडम', 'अच्छा', 'ठीक', 'रहा', 'रही', 'रहे', 'गया',
    'गई', 'दिया', 'अभी', 'इस', 'उस', 'इसे', 'लिए', 'बारे',
  ],
  'mr': [
    'आहे', 'आहेत', 'होता', 'होती', 'होतं', 'मी', 'मला', 'माझा', 'माझी', 'माझं', 'तुम्ही', 'तुमचा', 'तुमची', 'तुमचं',
    'तुम्हाला', 'आणि', 'किंवा', 'हा', 'ही', 'हे', 'तो', 'ती', 'ते', 'जो', 'तर', 'पण', 'पण', 'च', 'हो', 'नाही', 'काय',
    'कर', 'करा', 'काही', 'कोणी', 'एक', 'सर', 'मॅडम', 'ठीक', 'बरं', 'आत्ता', 'या', 'त्या', 'साठी', 'बद्दल', 'का',
  ],
  'ta': [
    'நான்', 'நீங்க', 'நீங்கள்', 'உங்க', 'உங்கள்', 'என்', 'எனக்கு', 'இது', 'அது', 'இந்த', 'அந்த', 'ஒரு', 'மற்றும்',
    'ஆமா', 'ஆமாம்', 'இல்லை', 'சரி', 'சார்', 'மேடம்', 'தான்', 'என்ன', 'இப்போ', 'பத்தி', 'கிட்ட', 'இருக்கு', 'ஓகே',
    'அப்படியா', 'ஆனா', 'வந்து', 'எல்லாம்',
  ],
  'te': [
    'నేను', 'మీరు', 'మీ', 'నా', 'నాకు', 'ఇది', 'అది', 'ఈ', 'ఆ', 'ఒక', 'మరియు', 'అవును', 'లేదు', 'సరే', 'సార్',
    'మేడమ్', 'ఏమి', 'ఏం', 'ఇప్పుడు', 'గురించి', 'ఉంది', 'అండి', 'ఓకే', 'కానీ', 'కూడా', 'చాలా',
  ],
};
