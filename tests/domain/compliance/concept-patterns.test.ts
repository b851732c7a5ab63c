import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FALSE_CLAIM_PATTERNS, PROMOTION_PATTERNS, THREAT_PATTERNS } from '../../../domain/compliance/lexicon/concepts.ts';
import { expandAlternatives, findPattern } from '../../../domain/compliance/phrase-finder.ts';
import { evaluatePostCall } from '../../../domain/compliance/post-call-rules.ts';
import { romanisedHindiKey } from '../../../domain/compliance/romanised-hindi.ts';
import { callInput, LANGUAGES, transcript } from './fixtures.ts';

// Given an agent's sentence said in words no phrase list holds, when the concept patterns are searched, then the
// violation is found from its parts (an actor, an action, a target in one clause, in any order), a denial is not
// a violation, and the customer saying the same words is not the agent's breach.

interface Cases {
  /** The fixtures' language name. */
  name: string;
  threats: string[];
  claims: string[];
  promos: string[];
  /** Agent sentences that are no violation of any of the three families (a service offer of a link is no pitch). */
  clean: string[];
  /** A customer's line with threat or claim words. */
  customer: string;
}

const CASES: Cases[] = [
  {
    name: 'English',
    threats: ['Our collection boys will be waiting outside your shop tomorrow.', "I'll inform your mother in law about the loan."],
    claims: ['The SHO has your file, expect the constables.', 'Your salary will be garnished.'],
    promos: ['By the way, you are eligible for a pre approved loan at a special rate.'],
    clean: ['Your home loan statement is ready, shall I send you the link?', 'Nobody from our team will visit your home.', 'Your credit score can improve if you pay on time.', 'There is no question of police or arrest.'],
    customer: 'Will your boys come to my shop and will the constables arrest me?',
  },
  {
    name: 'Hindi',
    threats: ['कल हमारे एजेंट आपके कारखाने के बाहर खड़े रहेंगे।', 'आपकी सास को सब बता दूँगा।'],
    claims: ['दरोगा जी से बात हो गई है।', 'आपकी पेंशन जब्त होगी।'],
    promos: ['आपके लिए खास प्री अप्रूव्ड लोन भी मिल सकता है।'],
    clean: ['आपके होम लोन का स्टेटमेंट तैयार है, लिंक भेज दूँ?', 'कोई भी आपके घर नहीं आएगा।', 'समय पर भुगतान से आपका सिबिल स्कोर सुधरेगा।'],
    customer: 'क्या आपके लोग मेरी दुकान पर आएंगे? दरोगा मेरा दोस्त है।',
  },
  {
    name: 'Hinglish',
    threats: ['Kal hamare bande aapke office ke bahar khade rahenge.', 'Aapke paapa ko sab bataa denge.'],
    claims: ['Havaldaar aa raha hai.', 'Aapki salary rok di jayegi.'],
    promos: ['Aapke liye khaas mutual fund plan hai, interested hain?'],
    clean: ['Aapke home loan ka statement ready hai, link bhej doon?', 'Koi bhi aapke ghar nahi aayega.', 'Time pe payment se aapka CIBIL score sudhrega.'],
    customer: 'Kya aapke log meri dukaan pe aayenge? Havaldar mera dost hai.',
  },
  {
    name: 'Marathi',
    threats: ['उद्या आमचे एजंट तुमच्या ऑफिसबाहेर उभे असतील.', 'तुमच्या वडिलांना सगळं सांगतो.'],
    claims: ['फौजदार साहेबांशी बोलणं झालंय.', 'तुमचं पेन्शन जप्त होईल.'],
    promos: ['तुमच्यासाठी खास गोल्ड कार्ड मिळू शकतं.'],
    clean: ['तुमच्या होम लोनचं स्टेटमेंट तयार आहे, लिंक पाठवू का?', 'कोणीही तुमच्या घरी येणार नाही.', 'वेळेवर भरल्यास तुमचा सिबिल स्कोअर सुधारेल.'],
    customer: 'तुमची माणसं माझ्या दुकानावर येणार का? फौजदार माझा मित्र आहे.',
  },
  {
    name: 'Tamil',
    threats: ['நாளைக்கு எங்க ஏஜென்ட் உங்க ஆபீஸ் வாசல்ல காத்திருப்பாங்க.', 'உங்க அப்பாகிட்ட எல்லாம் சொல்லிடுவேன்.'],
    claims: ['கான்ஸ்டபிள் வந்துகிட்டு இருக்காரு.', 'உங்க சம்பளம் முடக்கப்படும்.'],
    promos: ['உங்களுக்கு மட்டும் ஒரு கோல்ட் கார்டு கிடைக்கும்.'],
    clean: ['உங்க ஹோம் லோன் ஸ்டேட்மென்ட் ரெடி, லிங்க் அனுப்பட்டுமா?', 'யாரும் உங்க வீட்டுக்கு வர மாட்டாங்க.', 'சரியா கட்டினா உங்க சிபில் ஸ்கோர் உயரும்.'],
    customer: 'உங்க ஆளுங்க என் கடைக்கு வருவாங்களா? கான்ஸ்டபிள் என் நண்பர்.',
  },
  {
    name: 'Telugu',
    threats: ['రేపు మా ఏజెంట్లు మీ ఆఫీసు దగ్గర నిలబడతారు.', 'మీ నాన్నగారికి అన్నీ చెబుతాను.'],
    claims: ['ఎస్సై గారితో మాట్లాడాను.', 'మీ జీతం ఆపేస్తాం.'],
    promos: ['మీకు మాత్రమే గోల్డ్ కార్డ్ ఇస్తాం.'],
    clean: ['మీ హోమ్ లోన్ స్టేట్మెంట్ సిద్ధంగా ఉంది, లింక్ పంపమంటారా?', 'ఎవరూ మీ ఇంటికి రారు.', 'మీ కుటుంబానికి మేము ఎప్పుడూ చెప్పము.', 'సమయానికి కడితే మీ సిబిల్ స్కోర్ మెరుగవుతుంది.'],
    customer: 'మీ వాళ్ళు నా షాపుకి వస్తారా? ఎస్సై నా స్నేహితుడు.',
  },
];

const RULE_OF = {
  threats: 'in-rbi-recovery.no_threats',
  claims: 'in-rbi-recovery.no_false_claims',
  promos: 'in-trai.no_promotional_content_on_service_call',
} as const;

const ALL_PACKS = [
  { id: 'in-rbi-recovery', parameters: {} },
  { id: 'in-trai', parameters: {} },
];

for (const cases of CASES) {
  const lines = LANGUAGES.find((language) => language.name === cases.name)!;
  const { language } = lines;
  const failing = (agentLine: string, speaker = 'agent', purpose: 'recovery' | 'service' = 'recovery') => {
    const input = callInput(lines, transcript([['agent', lines.intro], ['customer', lines.yes], [speaker, agentLine]]), { purpose });
    return evaluatePostCall(input, ALL_PACKS)
      .filter((result) => !result.passed)
      .map((result) => result.rule_id);
  };

  test(`${cases.name}: threats in new words are found by their parts`, () => {
    for (const text of cases.threats) {
      assert.ok(findPattern(text, language, THREAT_PATTERNS, { negatable: true }), text);
      assert.equal(failing(text), [RULE_OF.threats], text);
    }
  });

  test(`${cases.name}: false claims in new words are found by their parts`, () => {
    for (const text of cases.claims) {
      assert.ok(findPattern(text, language, FALSE_CLAIM_PATTERNS, { negatable: true }), text);
      assert.equal(failing(text), [RULE_OF.claims], text);
    }
  });

  test(`${cases.name}: a product pitched on a service call is promotional`, () => {
    for (const text of cases.promos) {
      assert.ok(findPattern(text, language, PROMOTION_PATTERNS, { negatable: true }), text);
      assert.equal(failing(text, 'agent', 'service'), [RULE_OF.promos], text);
    }
  });

  test(`${cases.name}: denials and truthful statements fail no rule`, () => {
    for (const text of cases.clean) assert.equal(failing(text), [], text);
  });

  test(`${cases.name}: the customer saying the words is not the agent's violation`, () => {
    assert.equal(failing(cases.customer, 'customer'), []);
  });
}

test('word order is free within a clause: the actor may follow the action', () => {
  assert.ok(findPattern('आपके कारखाने के बाहर खड़े रहेंगे हमारे लोग', 'hi-IN', THREAT_PATTERNS, { negatable: true }));
  assert.ok(findPattern('सब बता दूँगा आपकी सास को', 'hi-IN', THREAT_PATTERNS, { negatable: true }));
});

test('a negator inside another part of the pattern is that part, not a denial ("कहीं भी … नहीं मिलेगा")', () => {
  assert.ok(findPattern('कहीं भी आपको लोन नहीं मिलेगा', 'hi-IN', FALSE_CLAIM_PATTERNS, { negatable: true }));
  assert.ok(findPattern('No bank will ever give you a loan again', 'en-IN', FALSE_CLAIM_PATTERNS, { negatable: true }));
  assert.ok(findPattern('எந்த பேங்கும் உங்களுக்கு லோன் தராது', 'ta-IN', FALSE_CLAIM_PATTERNS, { negatable: true }));
});

test('an audience made to watch is public shaming; agencies and summons are false claims', () => {
  assert.ok(findPattern('the whole colony will see our van outside', 'en-IN', THREAT_PATTERNS, { negatable: true }));
  assert.ok(findPattern('पूरे मोहल्ले के सामने बात होगी', 'hi-IN', THREAT_PATTERNS, { negatable: true }));
  assert.ok(findPattern('the CBI will summon you', 'en-IN', FALSE_CLAIM_PATTERNS, { negatable: true }));
  assert.ok(findPattern('మిమ్మల్ని విచారణకు పిలుస్తారు', 'te-IN', FALSE_CLAIM_PATTERNS, { negatable: true }));
});

test('a concept pattern does not reach across a clause break', () => {
  assert.is(findPattern('Your shop is on my list. We are waiting for the payment.', 'en-IN', THREAT_PATTERNS, { negatable: true }), null);
});

test('the romanised-Hindi key folds the common spelling variants and keeps words apart', () => {
  for (const [a, b] of [['pakad', 'pakkadh'], ['jayenge', 'jaayenge'], ['nahi', 'nahin'], ['havaldar', 'hawaldaar'], ['zyada', 'jyada'], ['toh', 'to']]) {
    assert.is(romanisedHindiKey(a!), romanisedHindiKey(b!), `${a} = ${b}`);
  }
  assert.is.not(romanisedHindiKey('police'), romanisedHindiKey('policy'));
  assert.is(romanisedHindiKey('पुलिस'), 'पुलिस', 'other scripts untouched');
});

test('"(a|b) c" expands to every alternative, in order', () => {
  assert.equal(expandAlternatives('(your|ur) (house|door)'), ['your house', 'your door', 'ur house', 'ur door']);
  assert.equal(expandAlternatives('no group'), ['no group']);
});

test('"toh" stays a Hinglish scope break without swallowing the English "to"', () => {
  assert.ok(findPattern('We will come to your house', 'en-IN', THREAT_PATTERNS, { negatable: true }));
});

test.run();
