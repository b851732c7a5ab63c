// Entity extraction for summaries (infra/analysis/entities/): given a sentence of a call in one of the languages,
// when the entities are extracted, then the amounts (in rupees), days and times, and ids are the ones spoken.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractEntities, formatRupees } from '../../../infra/analysis/entities/entities.ts';
import { calledPerson, callingOrganisation, namedProduct } from '../../../infra/analysis/entities/caller.ts';
import { tokenize } from '../../../domain/shared/text/normalize.ts';

const amounts = (text: string) => extractEntities(text).amounts.map((amount) => amount.rupees);
const when = (text: string) => extractEntities(text).when.map((mention) => mention.text);

const AMOUNTS: Array<[language: string, text: string, rupees: number[]]> = [
  ['en', 'Your EMI of 8,450 rupees bounced on the 5th.', [8450]],
  ['en', 'Pay Rs. 5000 today, or ₹5,000, or 5k.', [5000, 5000, 5000]],
  ['en', 'I can manage five thousand by this Saturday.', [5000]],
  ['en', 'For a 10 lakh cover it comes to about 2,100 a month.', [1_000_000, 2100]],
  ['en', 'The outstanding is 1,24,000 and 14 EMIs are remaining.', [124_000]],
  ['hinglish', 'main kal paanch hazaar de dunga', [5000]],
  ['hinglish', 'outstanding 1 lakh 20 hazaar hai', [120_000]],
  ['hi', 'पंद्रह तारीख़ को दस हज़ार जमा कर दूँगा', [10_000]],
  ['hi', 'पाँच हज़ार रुपये भेज दूँगा', [5000]],
  ['hi', 'सर, डेढ़ लाख तक।', [150_000]],
  ['hi', 'साढ़े तीन लाख का लोन', [350_000]],
  ['hi', 'आपकी आठ हज़ार चार सौ की ईएमआई बाकी है', [8400]],
  ['hi', 'एक लाख चौबीस हज़ार बकाया है', [124_000]],
  ['mr', 'महिन्याला दोन हजारांपासून सुरू होते', [2000]],
  ['mr', 'तुमचा आठ हजार चारशेचा हप्ता बाकी आहे', [8400]],
  ['mr', '१५ तारखेला ५००० रुपये भरतो', [5000]],
  ['ta', 'பத்து லட்சம் கவர், மாசம் ரெண்டாயிரம் ரூபாய் தான்', [1_000_000, 2000]],
  ['ta', 'ஆயிரத்து எண்ணூறு தான் சார்', [1800]],
  ['ta', 'ஒரு லட்சத்து இருபத்து நாலாயிரம் பாக்கி', [124_000]],
  ['ta', '15ஆம் தேதி ஐந்தாயிரம் கட்டுறேன்', [5000]],
  ['te', 'లక్షన్నర వరకు సార్', [150_000]],
  ['te', 'రెండు లక్షన్నర లోన్', [250_000]],
  ['te', '15వ తేదీన ఐదు వేల రూపాయలు కడతాను', [5000]],
  ['te', 'మీ ఎనిమిది వేల నాలుగు వందల ఈఎంఐ ఇంకా కట్టలేదు', [8400]],
];

for (const [language, text, rupees] of AMOUNTS) {
  test(`${language}: amounts in "${text}"`, () => {
    assert.equal(amounts(text), rupees);
  });
}

test('numbers that are not amounts: percentages, counts, days, hours, years, ids', () => {
  assert.equal(amounts('Seven EMIs are pending, and foreclosure is 4 percent of principal.'), []);
  assert.equal(amounts('साढ़े सात प्रतिशत ब्याज'), []);
  assert.equal(amounts('Call me after 6 pm on the 15th.'), []);
  assert.equal(amounts('I have had this loan since 2019.'), []);
  assert.equal(amounts('gold loan account ending 4471'), []);
  assert.equal(amounts('नौ किस्तें बाक़ी हैं'), []);
});

test('an amount said with EMI or instalment is marked emi; a fee after it is not', () => {
  const [emi] = extractEntities('Your EMI of 8,450 rupees bounced.').amounts;
  assert.ok(emi!.emi);
  const [fee] = extractEntities('The outstanding is 1,24,000 and 14 EMIs are remaining.').amounts;
  assert.not.ok(fee!.emi);
  assert.ok(extractEntities('तुमचा आठ हजार चारशेचा हप्ता बाकी आहे').amounts[0]!.emi);
});

const WHEN: Array<[language: string, text: string, mentions: string[]]> = [
  ['en', 'Bounce charges apply after the 12th; pay by this Saturday or month end.', ['12th', 'this Saturday', 'month end']],
  ['en', 'Can you try me after six?', ['after six']],
  ['en', 'Tomorrow morning, around ten-ish.', ['Tomorrow morning', 'around ten']],
  ['hinglish', 'kal subah call karna, 10 tarikh ko baaki', ['kal subah', '10 tarikh']],
  ['hi', 'मैं परसों तक पैसे डाल दूँगा', ['परसों']],
  ['hi', 'कल शाम 5 बजे फ़ोन कीजिए', ['कल शाम 5 बजे']],
  ['hi', 'पंद्रह तारीख़ को जमा करूँगा, बाक़ी अगले महीने', ['पंद्रह तारीख़', 'अगले महीने']],
  ['mr', 'उद्या सकाळी दहा वाजता फोन करा', ['उद्या सकाळी दहा वाजता']],
  ['mr', 'ठीक आहे, गुरुवारी येतो मग.', ['गुरुवारी']],
  ['mr', 'हो, मी पुढच्या सोमवारी पाच हजार भरतो.', ['पुढच्या सोमवारी']],
  ['en', 'Pay today at 6 pm.', ['today at 6 pm']],
  ['ta', 'நாளைக்கு மாலை 4 மணிக்கு கூப்பிடுங்க', ['நாளைக்கு மாலை 4 மணிக்கு']],
  ['ta', 'சரி, சனிக்கிழமை வந்து நீட்டிச்சுக்கறேன்', ['சனிக்கிழமை']],
  ['ta', 'இன்னைக்கு சாயங்காலத்துக்குள்ள பணம் அனுப்பிடுறேன்', ['இன்னைக்கு சாயங்காலத்துக்குள்ள']],
  ['te', 'రేపు సాయంత్రం 6 గంటలకు ఫోన్ చేయండి', ['రేపు సాయంత్రం 6 గంటలకు']],
  ['te', 'శుక్రవారం లోపు కట్టేస్తాను', ['శుక్రవారం']],
];

for (const [language, text, mentions] of WHEN) {
  test(`${language}: days and times in "${text}"`, () => {
    assert.equal(when(text), mentions);
  });
}

test('ids: after an id word, or letters and digits together; their digits are no amount', () => {
  const entities = extractEntities('loan id LN-20231234 and policy number 99887766, account ending 4471');
  assert.equal(entities.ids, ['LN-20231234', '99887766', '4471']);
  assert.equal(entities.amounts, []);
});

test('a number with a currency word is an amount even right after "loan" (the README script\'s "loan of 50000 rupees" read as a loan id)', () => {
  assert.equal(extractEntities('Would you like to renew your loan of 50000 rupees?'), { amounts: [{ rupees: 50000, text: '50000 rupees', emi: false }], when: [], ids: [] });
  assert.equal(extractEntities('your loan Rs 50000 is due').ids, []);
  assert.equal(extractEntities('your loan number 50000 is due').ids, ['50000']);
});

test('rupees are written the Indian way, lakh and crore in the summary language', () => {
  assert.is(formatRupees(8450), '₹8,450');
  assert.is(formatRupees(150_000), '₹1.5 lakh');
  assert.is(formatRupees(10_000_000), '₹1 crore');
  assert.is(formatRupees(124_000, { lakh: 'लाख', crore: 'करोड़' }), '₹1.24 लाख');
  assert.is(formatRupees(123_456), '₹1,23,456');
});

const CALLERS: Array<[text: string, organisation: string | null]> = [
  ['Good morning, this is Priya calling from Sunrise Finance. Am I speaking with Mr. Rakesh?', 'Sunrise Finance'],
  ['Good afternoon sir, this is Bharti AXA calling for a feedback survey.', 'Bharti AXA'],
  ['Namaste sir, main Sunrise Finance se Neha bol rahi hoon.', 'Sunrise Finance'],
  ['नमस्ते सर, मैं टाटा कैपिटल से अंजलि बोल रही हूँ।', 'टाटा कैपिटल'],
  ['नमस्कार साहेब, मी महिंद्रा फायनान्समधून प्रिया बोलतेय.', 'महिंद्रा फायनान्स'],
  ['வணக்கம், நான் சன்ரைஸ் ஃபைனான்ஸிலிருந்து பிரியா பேசுறேன்.', 'சன்ரைஸ் ஃபைனான்ஸ்'],
  ['நான் ஸ்ரீராம் ஃபைனான்ஸ்ல இருந்து கார்த்திக் பேசுறேன்.', 'ஸ்ரீராம் ஃபைனான்ஸ்'],
  ['నమస్కారం, యాక్సిస్ బ్యాంక్ నుంచి మాట్లాడుతున్నాను.', 'యాక్సిస్ బ్యాంక్'],
  ['Sir, your personal loan is closing next month.', null],
  // A currency after "of" is no organisation (the summary said "Rs called the customer").
  ['Would you like to renew your loan of Rs 50,000?', null],
];

for (const [text, organisation] of CALLERS) {
  test(`the calling organisation in "${text}"`, () => {
    assert.is(callingOrganisation(text), organisation);
  });
}

const PEOPLE: Array<[text: string, person: string | null]> = [
  ['Good morning, this is Priya calling from Sunrise Finance. Am I speaking with Mr. Rakesh?', 'Mr Rakesh'],
  ['Mr. Fernandes, this is from the collections team of Home Credit.', 'Mr Fernandes'],
  ['Hello, Pooja Sharma ji? Aapke gold loan ka interest due hai.', 'Pooja Sharma ji'],
  ['नमस्ते, मैं सनराइज़ फ़ाइनेंस से प्रिया बोल रही हूँ। क्या मेरी बात रमेश जी से हो रही है?', 'रमेश जी'],
  ['नमस्ते जी, आपका लोन बकाया है।', null],
  ['पाटील साहेब, मी वसुली विभागातून बोलतोय.', 'पाटील साहेब'],
  ['हो साहेब, शाखेत येऊन करता येईल.', null],
  ['வணக்கம், நான் பிரியா பேசுறேன். ரமேஷ் சார் தானே?', 'ரமேஷ் சார்'],
  ['முடியும் சார், கிளைக்கு வந்தா பண்ணிடலாம்.', null],
  ['నమస్కారం, నేను ప్రియ మాట్లాడుతున్నాను. రమేష్ గారేనా?', 'రమేష్ గారు'],
  ['Hello sir, your EMI is due.', null],
];

for (const [text, person] of PEOPLE) {
  test(`the person asked for in "${text}"`, () => {
    assert.is(calledPerson(text), person);
  });
}

test('the product named first, most specific phrase', () => {
  assert.is(namedProduct(tokenize('Your personal loan is closing; the loan rate is low.', 'en-IN')), 'personal loan');
  assert.is(namedProduct(tokenize('आपका गोल्ड लोन पंद्रह तारीख को ड्यू है', 'hi-IN')), 'गोल्ड लोन');
  assert.is(namedProduct(tokenize('உங்க நகைக் கடன் காலம் இந்த வாரம் முடியுது', 'ta-IN')), 'நகைக் கடன்');
  assert.is(namedProduct(tokenize('Hello, how are you?', 'en-IN')), null);
});

test('bounded: a 200 KB sentence of numbers and day words is read in linear time', () => {
  const text = 'pay 5,000 rupees tomorrow morning and five thousand on the 15th '.repeat(3_000);
  const started = process.cpuUsage();
  const entities = extractEntities(text);
  const used = process.cpuUsage(started);
  assert.is(entities.amounts.length, 6_000);
  assert.ok((used.user + used.system) / 1000 < 5_000, 'took more than 5 s of CPU');
});

test.run();
