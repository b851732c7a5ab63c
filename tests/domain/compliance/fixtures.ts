/**
 * The lines a post-call test call is built from, per language (Hinglish as its own entry, tagged hi-IN). Each
 * language gives the same building blocks, so every rule is tested with a violating and a clean call in each.
 */
import type { CallPurpose, PostCallInput } from '../../../domain/compliance/rule.ts';
import type { TranscriptSegment } from '../../../domain/transcription-job.ts';

export interface LanguageLines {
  name: string;
  language: string;
  agent: string;
  lender: string;
  /** Agent and lender named, recording disclosed, identity asked. */
  intro: string;
  introWithoutNames: string;
  introWithoutRecording: string;
  /** Names, recording and the debt, before any identity question. */
  introWithDebt: string;
  serviceIntro: string;
  yes: string;
  thirdParty: string;
  debt: string;
  threat: string;
  negatedThreat: string;
  falseClaim: string;
  negatedClaim: string;
  /** The customer says the words of a false claim or threat: not the agent's violation. */
  customerPolice: string;
  promo: string;
  optOut: string;
  notOptOut: string;
}

export const LANGUAGES: LanguageLines[] = [
  {
    name: 'English', language: 'en-IN', agent: 'Anita', lender: 'Crescent Capital',
    intro: 'Hello, my name is Anita from Crescent Capital, this call is being recorded. Am I speaking with Mr Rao?',
    introWithoutNames: 'Hello, this call is being recorded. Am I speaking with Mr Rao?',
    introWithoutRecording: 'Hello, my name is Anita from Crescent Capital. Am I speaking with Mr Rao?',
    introWithDebt: 'Hello, Anita from Crescent Capital, this call is being recorded. There is an overdue EMI on the loan.',
    serviceIntro: 'Hello, Anita from Crescent Capital, this call is being recorded, calling about your address change request.',
    yes: 'Yes, speaking.',
    thirdParty: 'No, I am his brother.',
    debt: 'Your EMI of six thousand is overdue.',
    threat: 'Pay up or our boys will break your legs.',
    negatedThreat: 'I am not threatening you, sir.',
    falseClaim: 'The police will arrest you tonight.',
    negatedClaim: 'The police will not come, nobody will arrest you.',
    customerPolice: 'I will go to the police and you will all go to jail.',
    promo: 'Also we have a special offer on a new credit card with cashback.',
    optOut: 'Please do not call me again.',
    notOptOut: 'Call me in the evening please.',
  },
  {
    name: 'Hindi', language: 'hi-IN', agent: 'अमित', lender: 'धनलक्ष्मी फाइनेंस',
    intro: 'नमस्ते, मैं अमित, धनलक्ष्मी फाइनेंस से, कॉल रिकॉर्ड हो रही है। क्या आप सुनील जी हैं?',
    introWithoutNames: 'हेलो, कॉल रिकॉर्ड हो रही है। क्या आप सुनील जी हैं?',
    introWithoutRecording: 'नमस्ते, मैं अमित, धनलक्ष्मी फाइनेंस से। क्या आप सुनील जी हैं?',
    introWithDebt: 'नमस्ते, मैं अमित, धनलक्ष्मी फाइनेंस से, कॉल रिकॉर्ड हो रही है। आपकी किस्त बकाया है।',
    serviceIntro: 'नमस्ते, मैं अमित, धनलक्ष्मी फाइनेंस से, कॉल रिकॉर्ड हो रही है, आपके पते के बदलाव के बारे में कॉल किया है।',
    yes: 'हाँ, बोलिए।',
    thirdParty: 'मैं उनका भाई हूँ।',
    debt: 'आपकी किस्त बकाया है।',
    threat: 'पैसे नहीं दिए तो हाथ पैर तोड़ देंगे।',
    negatedThreat: 'मैं आपको कोई धमकी नहीं दे रहा हूँ।',
    falseClaim: 'पुलिस आपको आज गिरफ्तार कर लेगी।',
    negatedClaim: 'पुलिस नहीं आएगी, कोई गिरफ्तारी नहीं होगी।',
    customerPolice: 'मैं पुलिस में शिकायत करूँगा, तुम जेल जाओगे।',
    promo: 'आपके लिए नए क्रेडिट कार्ड पर विशेष छूट है।',
    optOut: 'मुझे दोबारा फोन मत करना।',
    notOptOut: 'शाम को फोन कीजिए।',
  },
  {
    name: 'Hinglish', language: 'hi-IN', agent: 'Rohit', lender: 'Dhanlaxmi Finance',
    intro: 'Namaste, main Rohit Dhanlaxmi Finance se, call record ho rahi hai. Kya aap Sunil ji hain?',
    introWithoutNames: 'Hello, call record ho rahi hai. Kya aap Sunil ji hain?',
    introWithoutRecording: 'Namaste, main Rohit Dhanlaxmi Finance se. Kya aap Sunil ji hain?',
    introWithDebt: 'Namaste, main Rohit Dhanlaxmi Finance se, call record ho rahi hai. Aapki EMI baki hai.',
    serviceIntro: 'Namaste, main Rohit Dhanlaxmi Finance se, call record ho rahi hai, aapke address change ke baare mein call kiya hai.',
    yes: 'Haan ji.',
    thirdParty: 'Main unka bhai hoon, woh ghar pe nahi hain.',
    debt: 'Aapki EMI baki hai.',
    threat: 'Paisa nahi diya to ghar aa jayenge, dekh lena.',
    negatedThreat: 'Main aapko koi dhamki nahi de raha.',
    falseClaim: 'Aaj police aapko arrest kar legi.',
    negatedClaim: 'Police nahi aayegi, jail ki koi baat nahi hai.',
    customerPolice: 'Main police complaint karunga, tum log jail jaoge.',
    promo: 'Aapke liye pre-approved loan ka special offer hai.',
    optOut: 'Mujhe dobara call mat karna.',
    notOptOut: 'Shaam ko call karna.',
  },
  {
    name: 'Tamil', language: 'ta-IN', agent: 'அருண்', lender: 'லட்சுமி ஃபைனான்ஸ்',
    intro: 'வணக்கம், நான் அருண், லட்சுமி ஃபைனான்ஸ்லிருந்து, அழைப்பு பதிவு செய்யப்படுகிறது. நீங்க மணி சாரா?',
    introWithoutNames: 'ஹலோ, அழைப்பு பதிவு செய்யப்படுகிறது. நீங்க மணி சாரா?',
    introWithoutRecording: 'வணக்கம், நான் அருண், லட்சுமி ஃபைனான்ஸ்லிருந்து. நீங்க மணி சாரா?',
    introWithDebt: 'வணக்கம், நான் அருண், லட்சுமி ஃபைனான்ஸ்லிருந்து, அழைப்பு பதிவு செய்யப்படுகிறது. உங்க தவணை நிலுவையில இருக்கு.',
    serviceIntro: 'வணக்கம், நான் அருண், லட்சுமி ஃபைனான்ஸ்லிருந்து, அழைப்பு பதிவு செய்யப்படுகிறது, உங்க முகவரி மாற்றம் பற்றி பேசுறேன்.',
    yes: 'ஆமா, சொல்லுங்க.',
    thirdParty: 'நான் அவரோட தம்பி.',
    debt: 'உங்க தவணை நிலுவையில இருக்கு.',
    threat: 'பணம் கட்டலைன்னா கை கால உடைச்சிடுவோம்.',
    negatedThreat: 'நான் உங்களை மிரட்டல சார், ஒரு தேதி மட்டும் சொல்லுங்க.',
    falseClaim: 'போலீஸ் உங்களை இன்னைக்கு கைது பண்ணுவாங்க.',
    negatedClaim: 'போலீஸ் வராது, யாரும் கைது பண்ண மாட்டாங்க.',
    customerPolice: 'நான் போலீஸ்ல புகார் குடுப்பேன்.',
    promo: 'உங்களுக்கு புது கிரெடிட் கார்டுக்கு சிறப்பு சலுகை இருக்கு.',
    optOut: 'எனக்கு இனிமே கால் பண்ணாதீங்க.',
    notOptOut: 'சாயங்காலம் கூப்பிடுங்க.',
  },
  {
    name: 'Telugu', language: 'te-IN', agent: 'రాజు', lender: 'లక్ష్మి ఫైనాన్స్',
    intro: 'నమస్కారం, నేను రాజు, లక్ష్మి ఫైనాన్స్ నుండి, కాల్ రికార్డ్ చేయబడుతోంది. మీరు కృష్ణ గారేనా?',
    introWithoutNames: 'హలో, కాల్ రికార్డ్ చేయబడుతోంది. మీరు కృష్ణ గారేనా?',
    introWithoutRecording: 'నమస్కారం, నేను రాజు, లక్ష్మి ఫైనాన్స్ నుండి. మీరు కృష్ణ గారేనా?',
    introWithDebt: 'నమస్కారం, నేను రాజు, లక్ష్మి ఫైనాన్స్ నుండి, కాల్ రికార్డ్ చేయబడుతోంది. మీ వాయిదా బకాయి ఉంది.',
    serviceIntro: 'నమస్కారం, నేను రాజు, లక్ష్మి ఫైనాన్స్ నుండి, కాల్ రికార్డ్ చేయబడుతోంది, మీ చిరునామా మార్పు గురించి కాల్ చేశాను.',
    yes: 'అవును, చెప్పండి.',
    thirdParty: 'నేను ఆయన భార్యను.',
    debt: 'మీ వాయిదా బకాయి ఉంది.',
    threat: 'డబ్బులు కట్టకపోతే కాళ్ళు చేతులు విరగ్గొడతాం.',
    negatedThreat: 'నేను మిమ్మల్ని బెదిరించడం లేదు సార్.',
    falseClaim: 'పోలీసులు మిమ్మల్ని అరెస్ట్ చేస్తారు.',
    negatedClaim: 'పోలీసులు రారు, ఎవరూ అరెస్ట్ చేయరు.',
    customerPolice: 'నేను పోలీసులకు ఫిర్యాదు చేస్తాను.',
    promo: 'మీకు కొత్త క్రెడిట్ కార్డ్ పై ప్రత్యేక ఆఫర్ ఉంది.',
    optOut: 'నాకు మళ్ళీ కాల్ చేయకండి.',
    notOptOut: 'సాయంత్రం కాల్ చేయండి.',
  },
  {
    name: 'Marathi', language: 'mr-IN', agent: 'प्रशांत', lender: 'लक्ष्मी फायनान्स',
    intro: 'नमस्कार, मी प्रशांत, लक्ष्मी फायनान्स मधून, कॉल रेकॉर्ड होत आहे. आपण अजय बोलताय का?',
    introWithoutNames: 'हॅलो, कॉल रेकॉर्ड होत आहे. आपण अजय बोलताय का?',
    introWithoutRecording: 'नमस्कार, मी प्रशांत, लक्ष्मी फायनान्स मधून. आपण अजय बोलताय का?',
    introWithDebt: 'नमस्कार, मी प्रशांत, लक्ष्मी फायनान्स मधून, कॉल रेकॉर्ड होत आहे. तुमचा हप्ता थकला आहे.',
    serviceIntro: 'नमस्कार, मी प्रशांत, लक्ष्मी फायनान्स मधून, कॉल रेकॉर्ड होत आहे, तुमच्या पत्ता बदलाबद्दल कॉल केला आहे.',
    yes: 'हो, बोला.',
    thirdParty: 'मी त्यांचा भाऊ आहे.',
    debt: 'तुमचा हप्ता थकला आहे.',
    threat: 'पैसे भरले नाहीत तर हात पाय तोडू.',
    negatedThreat: 'मी तुम्हाला धमकी देत नाही.',
    falseClaim: 'पोलीस तुम्हाला अटक करतील.',
    negatedClaim: 'पोलीस येणार नाहीत, कोणीही अटक करणार नाही.',
    customerPolice: 'मी पोलिसात तक्रार करणार.',
    promo: 'तुमच्यासाठी नवीन क्रेडिट कार्डवर खास ऑफर आहे.',
    optOut: 'मला परत फोन करू नका.',
    notOptOut: 'संध्याकाळी फोन करा.',
  },
];

/** A call from [speaker, text] turns: 0.4 s a word, 0.5 s between turns; a number adds that much silence. */
export function transcript(turns: ReadonlyArray<readonly [string, string] | number>): TranscriptSegment[] {
  const segments: TranscriptSegment[] = [];
  let clock = 0;
  for (const turn of turns) {
    if (typeof turn === 'number') {
      clock += turn;
      continue;
    }
    const [speaker, text] = turn;
    const end = clock + Math.max(0.5, text.split(/\s+/).length * 0.4);
    segments.push({ speaker, text, start_time: Number(clock.toFixed(2)), end_time: Number(end.toFixed(2)) });
    clock = end + 0.5;
  }
  return segments;
}

export function callInput(lines: LanguageLines, segments: TranscriptSegment[], overrides: Partial<PostCallInput> = {}): PostCallInput {
  return {
    language: lines.language,
    purpose: 'recovery' as CallPurpose,
    segments,
    recorded: true,
    agentSentiment: null,
    lenderName: lines.lender,
    agentName: lines.agent,
    ...overrides,
  };
}
