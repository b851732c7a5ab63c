import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FALSE_CLAIM_PATTERNS, PROMOTION_PATTERNS, THREAT_PATTERNS } from '../../../domain/compliance/lexicon/concepts.ts';
import { findPattern } from '../../../domain/compliance/phrase-finder.ts';

// Given an agent's sentence from one of the situation families the fourth round added (people sent to sit in the
// borrower's home, a message to everyone the borrower knows, "have you no shame", a home auctioned or taken over,
// the RBI or the government said to act, a special or guaranteed rate), when the concept patterns are searched,
// then it is found in every language, and the same family's harmless sentence is not.

interface Family {
  family: string;
  patterns: Parameters<typeof findPattern>[2];
  found: Array<[language: string, text: string]>;
  clean: Array<[language: string, text: string]>;
}

const FAMILIES: Family[] = [
  {
    family: 'coercive presence: a number of our people sitting in your home or shop',
    patterns: THREAT_PATTERNS,
    found: [
      ['en-IN', 'Three of our men will sit in your shop the whole day.'],
      ['hi-IN', 'कल से हमारे तीन लोग आपकी दुकान पर बैठेंगे।'],
      ['hi-IN', 'Kal se hamare teen log aapki dukaan pe baithenge.'],
      ['mr-IN', 'उद्यापासून आमची तीन माणसं तुमच्या दुकानात बसतील.'],
      ['ta-IN', 'நாளையிலிருந்து எங்க மூணு ஆளுங்க உங்க கடையில உக்காருவாங்க.'],
      ['te-IN', 'రేపటి నుంచి మా ముగ్గురు మీ షాపులో కూర్చుంటారు.'],
    ],
    clean: [
      ['en-IN', 'You can sit at home and pay through the app.'],
      ['hi-IN', 'आप घर बैठे ऐप से भुगतान कर सकते हैं।'],
      ['te-IN', 'మా వాళ్ళు ఎవరూ మీ ఇంటికి రారు.'],
    ],
  },
  {
    family: 'telling everyone the borrower knows',
    patterns: THREAT_PATTERNS,
    found: [
      ['en-IN', 'All your contacts will get a message about this loan.'],
      ['hi-IN', 'आपके सारे रिश्तेदारों को मैसेज जाएगा।'],
      ['hi-IN', 'Aapke saare rishtedaron ko message jayega.'],
      ['mr-IN', 'तुमच्या सगळ्या नातेवाईकांना मेसेज जाईल.'],
      ['ta-IN', 'உங்க எல்லா சொந்தக்காரங்களுக்கும் மெசேஜ் போகும்.'],
      ['te-IN', 'మీ అందరు బంధువులకీ మెసేజ్ వెళ్తుంది.'],
    ],
    clean: [
      ['en-IN', 'You will get a message with the receipt.'],
      ['hi-IN', 'आपको रसीद का मैसेज जाएगा।'],
    ],
  },
  {
    family: 'shaming: "have you no shame", "eating other people\'s money"',
    patterns: THREAT_PATTERNS,
    found: [
      ['en-IN', 'Have you no shame, sir?'],
      ['hi-IN', 'आपको थोड़ी भी शर्म है या नहीं?'],
      ['hi-IN', 'Aapko zara bhi sharam hai ya nahi?'],
      ['mr-IN', 'तुम्हाला थोडी तरी लाज आहे का?'],
      ['ta-IN', 'உங்களுக்கு வெட்கம் இல்லையா?'],
      ['te-IN', 'మీకు కొంచెమైనా సిగ్గు ఉందా?'],
    ],
    clean: [['en-IN', 'There is no shame in asking for more time, sir.']],
  },
  {
    family: 'seizure: the home auctioned or taken over',
    patterns: FALSE_CLAIM_PATTERNS,
    found: [
      ['en-IN', 'The bank will take possession of your flat on Monday.'],
      ['hi-IN', 'सोमवार को आपके मकान की नीलामी होगी।'],
      ['hi-IN', 'Somvaar ko aapke makaan ki neelami hogi.'],
      ['mr-IN', 'सोमवारी तुमचं घर ताब्यात घेतलं जाईल.'],
      ['ta-IN', 'திங்கக்கிழமை உங்க வீட்டை ஏலம் விடுவாங்க.'],
      ['te-IN', 'సోమవారం మీ ఇంటిని వేలం వేస్తారు.'],
    ],
    clean: [
      ['en-IN', 'Your flat is not at risk, sir, this is only a reminder.'],
      ['hi-IN', 'आपके मकान की कोई नीलामी नहीं होगी।'],
    ],
  },
  {
    family: 'an authority said to act: RBI, the government, the tax department',
    patterns: FALSE_CLAIM_PATTERNS,
    found: [
      ['en-IN', 'The Reserve Bank will freeze everything by tonight.'],
      ['en-IN', 'The income tax department has a case on this loan.'],
      ['hi-IN', 'आरबीआई आपका खाता फ्रीज करवा देगा।'],
      ['hi-IN', 'RBI aapka account freeze karwa dega.'],
      ['mr-IN', 'आरबीआय तुमचं खातं गोठवेल.'],
      ['ta-IN', 'ரிசர்வ் வங்கி உங்க அக்கவுண்ட முடக்கும்.'],
      ['te-IN', 'ఆర్బీఐ మీ అకౌంట్ ఫ్రీజ్ చేస్తుంది.'],
    ],
    clean: [
      ['en-IN', 'As per RBI guidelines you may write to our grievance officer.'],
      ['hi-IN', 'आरबीआई के नियमों के अनुसार आप शिकायत कर सकते हैं।'],
    ],
  },
  {
    family: 'a deposit at a special or guaranteed rate',
    patterns: PROMOTION_PATTERNS,
    found: [
      ['en-IN', 'We have a recurring deposit with guaranteed returns this month.'],
      ['hi-IN', 'इस हफ्ते एफडी पर स्पेशल ब्याज दर है, खोल दूँ?'],
      ['hi-IN', 'Is hafte FD pe special byaaj rate hai, khol doon?'],
      ['mr-IN', 'या आठवड्यात एफडीवर खास व्याज दर आहे, उघडू का?'],
      ['ta-IN', 'இந்த வாரம் எஃப்டிக்கு ஸ்பெஷல் வட்டி ரேட் இருக்கு, ஓபன் பண்ணட்டுமா?'],
      ['te-IN', 'ఈ వారం ఎఫ్డీకి స్పెషల్ వడ్డీ రేటు ఉంది, ఓపెన్ చేయమంటారా?'],
    ],
    clean: [
      ['en-IN', 'Your FD matured yesterday and the amount is in your savings account.'],
      ['hi-IN', 'आपकी एफडी कल पूरी हो गई, पैसा आपके खाते में है।'],
    ],
  },
  // Round 5 (from fresh-6's misses)
  {
    family: "the borrower's job threatened",
    patterns: THREAT_PATTERNS,
    found: [
      ['en-IN', 'Keep ignoring us and you will lose your job over this.'],
      ['hi-IN', 'ऐसे ही चलता रहा तो आपकी नौकरी चली जाएगी।'],
      ['hi-IN', 'Aise hi chalta raha toh aapki naukri chali jayegi.'],
      ['mr-IN', 'असंच चाललं तर तुमची नोकरी जाईल.'],
      ['ta-IN', 'இப்படியே போனா உங்க வேலை போயிடும்.'],
      ['te-IN', 'ఇలాగే కొనసాగితే మీ ఉద్యోగం పోతుంది.'],
    ],
    clean: [
      ['en-IN', 'I am sorry you lost your job, sir, we can restructure the EMI.'],
      ['hi-IN', 'नौकरी चली गई है तो हम किस्त कम कर सकते हैं।'],
    ],
  },
  {
    family: 'an add-on cover sold for a small price',
    patterns: PROMOTION_PATTERNS,
    found: [
      ['en-IN', 'We can add accident cover for just two hundred rupees.'],
      ['hi-IN', 'सिर्फ दो सौ रुपये में आपके लिए एक्सीडेंट कवर जोड़ दूँ?'],
      ['hi-IN', 'Sirf do sau rupaye mein accident cover jod doon?'],
      ['mr-IN', 'फक्त दोनशे रुपयांत अपघात विमा जोडू का?'],
      ['ta-IN', 'வெறும் இருநூறு ரூபாய்க்கு விபத்து காப்பீடு சேர்க்கலாம்.'],
      ['te-IN', 'కేవలం రెండు వందలకే ప్రమాద బీమా జోడించొచ్చు.'],
    ],
    clean: [
      ['en-IN', 'Your accident cover is active till March.'],
      ['hi-IN', 'आपका एक्सीडेंट कवर मार्च तक चालू है।'],
    ],
  },
  {
    family: 'a criminal matter, a cyber department',
    patterns: FALSE_CLAIM_PATTERNS,
    found: [
      ['en-IN', 'The cyber police have your details now.'],
      ['hi-IN', 'साइबर पुलिस के पास आपकी पूरी जानकारी है।'],
      ['mr-IN', 'हे आता फौजदारी प्रकरण आहे.'],
      ['ta-IN', 'இது இப்போ கிரிமினல் கேஸ்.'],
      ['te-IN', 'ఇది ఇప్పుడు క్రిమినల్ కేసు.'],
    ],
    clean: [['en-IN', 'This is not a criminal matter, sir, it is a civil dues matter.']],
  },
];

for (const { family, patterns, found, clean } of FAMILIES) {
  test(`${family}: found in every language`, () => {
    for (const [language, text] of found) assert.ok(findPattern(text, language, patterns, { negatable: true }), `${language}: ${text}`);
  });
  test(`${family}: the harmless or denied sentence is not`, () => {
    for (const [language, text] of clean) assert.is(findPattern(text, language, patterns, { negatable: true }), null, `${language}: ${text}`);
  });
}

test.run();
