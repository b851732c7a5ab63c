// Script boilerplate and pleasantries (infra/analysis/boilerplate.ts): given a sentence of a call, when it is
// checked, then greetings, identity checks, self-introductions, recording notices and closings are boilerplate in
// every language, and a sentence that says something more is not.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isBoilerplate } from '../../../infra/analysis/boilerplate.ts';
import { tokenize } from '../../../domain/shared/text/normalize.ts';

const check = (text: string, language: string) => isBoilerplate(text, tokenize(text, language), language);

const BOILERPLATE: Array<[language: string, text: string]> = [
  ['en-IN', 'This call is recorded.'],
  ['en-IN', 'This call is being recorded for quality and training purposes, and your EMI is due.'],
  ['en-IN', 'Good morning, this is Priya calling from Sunrise Finance.'],
  ['en-IN', 'Am I speaking with Mr. Rakesh?'],
  ['en-IN', 'Thank you, our team will call you shortly.'],
  ['en-IN', 'Yes, speaking.'],
  ['hi-IN', 'Namaste sir, main Sunrise Finance se Neha bol rahi hoon.'],
  ['hi-IN', 'Theek hai, thank you.'],
  ['hi-IN', 'नमस्ते, मैं सनराइज़ फ़ाइनेंस से प्रिया बोल रही हूँ।'],
  ['hi-IN', 'यह कॉल रिकॉर्ड की जा रही है।'],
  ['hi-IN', 'क्या मेरी बात रमेश जी से हो रही है?'],
  ['hi-IN', 'धन्यवाद, आपका दिन शुभ हो।'],
  ['mr-IN', 'नमस्कार, मी सनराइज फायनान्समधून प्रिया बोलतेय.'],
  ['mr-IN', 'हा कॉल गुणवत्तेसाठी रेकॉर्ड केला जात आहे.'],
  ['mr-IN', 'ठीक आहे, धन्यवाद.'],
  ['ta-IN', 'வணக்கம், நான் சன்ரைஸ் ஃபைனான்ஸிலிருந்து பிரியா பேசுறேன்.'],
  ['ta-IN', 'இந்த அழைப்பு தரத்திற்காக பதிவு செய்யப்படுகிறது.'],
  ['ta-IN', 'சரி, நன்றி.'],
  ['te-IN', 'నమస్కారం, నేను సన్‌రైజ్ ఫైనాన్స్ నుండి ప్రియ మాట్లాడుతున్నాను.'],
  ['te-IN', 'ఈ కాల్ నాణ్యత కోసం రికార్డ్ చేయబడుతోంది.'],
  ['te-IN', 'సరే, ధన్యవాదాలు.'],
];

const CONTENT: Array<[language: string, text: string]> = [
  ['en-IN', 'Okay, sign me up.'],
  ['en-IN', 'Please call me back tomorrow after six.'],
  ['en-IN', 'Thank you, I will pay five thousand on Friday.'],
  ['hi-IN', 'जी हाँ, आगे बढ़िए।'],
  ['hi-IN', 'नहीं चाहिए, बस।'],
  ['hi-IN', 'Haan, kal subah call karna.'],
  ['mr-IN', 'मला कर्ज पुन्हा सुरू करायचे आहे.'],
  ['ta-IN', 'சரி, சனிக்கிழமை வந்து கட்டுறேன்.'],
  ['te-IN', 'సరే, శుక్రవారం లోపు కట్టేస్తాను.'],
];

for (const [language, text] of BOILERPLATE) {
  test(`${language}: "${text}" is boilerplate`, () => {
    assert.ok(check(text, language));
  });
}

for (const [language, text] of CONTENT) {
  test(`${language}: "${text}" is content`, () => {
    assert.not.ok(check(text, language));
  });
}

test.run();
