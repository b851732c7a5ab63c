import type { ConceptLexicon } from '../concepts.ts';

// Romanised Hindi: phrases and transcript words are both read through romanisedHindiKey
// (domain/compliance/romanised-hindi.ts), so "darwaze" also covers "darwaaze", "dukaan" covers "dukan".
const YOUR = '(aapke|aapki|aapka|aapko|apke|apki|tumhare|tumhari|tumhara|tere|teri|tera)';
const YOU = '(aapko|tumhe|tumhein|tujhe|aap|tum|tu)';

/** Romanised Hindi (Hinglish) concept classes. */
export const hiLatn: ConceptLexicon = {
  yourPlace: [
    `${YOUR} (ghar*|darwaze*|darwaja*|dukaan*|office*|daftar*|factory*|karkhane*|company*|mohalle*|colony*|society*|gaon*|gali*|building*|showroom*|school*|godown*|hotel*|shop*)`,
    'jahan aap (rehte|kaam karte)',
  ],
  arrival: [
    'baithenge', 'baithe rahenge', 'baitha denge', 'date rahenge', 'jame rahenge',
    'aayenge', 'aa jayenge', 'aa jayegi', 'aa jayega', 'aakar', 'aake', 'aayegi', 'aayega', 'pahunch*', 'khade*', 'khadi*',
    'khada*', 'dharna', 'dera', 'gher*', 'baithe rahenge', 'baith jayenge', 'dastak',
  ],
  yourCircle: [
    '(aapki|aapke|tumhari|tumhare) (bitiya*|ladki*|ladke*|beti*|beta*)',
    '(har|sabhi|saare|sab) (rishtedar*|dost*|jaanne wal*|padosi*|contact*|relative*)', '(aapke|tumhare) (phone|mobile) ke (har|sabhi|saare)', '(aapke|tumhare) (contact*|contacts)', '(aapke|aapki|tumhare|tumhari) (damaad*|bahu*|jija*|nanad*|devar*|mama*|chacha*)',
    `${YOUR} (parivaar*|family*|gharwal*|wife|biwi*|patni*|pati*|husband|papa*|pitaji*|mummy|maa|mother|father|bachch*|bacch*|bete*|beti*|bhai*|behen*|sasur*|saas*|saale*|rishtedar*|relatives|padosi*|neighbours|company*|hr|boss*|manager*|colleague*|staff*|dost*|friends|office*|daftar*|malik*|seth*|guarantor*)`,
    `${YOUR} (company|office) ke (hr|boss|manager|malik|log)`,
  ],
  disclosure: [
    'message jayega', 'message jaega', 'message bhej*', 'khabar jayegi', 'pata chal jayega',
    'bata*', 'bol denge', 'bol dunga', 'keh denge', 'kahunga', 'mail*', 'email*', 'phone kar*', 'call kar*', 'message*',
    'phone laga*', 'call laga*', 'khabar kar*', 'khabar de*', 'pata chal*', 'complaint kar*', 'letter bhej*', 'inform kar*',
  ],
  ourMen: [
    '(hamare|humare|mere|apne) (do|teen|char|chaar|paanch|panch|chhe|das|kuch) (ladke|log|aadmi|bande|agent*)', '(hamare|humare|apne|mere) (ladke|log|aadmi|bande|team|agent*|pehelwan*|goonde|recovery wale)', 'kisi ko bhej*', 'log bhej*', 'aadmi bhej*', 'bande bhej*',
  ],
  violence: ['seedhe kar*', 'seedha kar*', 'theek kar denge', 'peet*', 'pitai', 'thok*', 'marenge', 'maar denge', 'maar dal*', 'dhulai', 'sabak sikha*', 'haath utha*'],
  bodyPart: ['haath*', 'pair*', 'taang*', 'haddi*', 'haddiyan', 'munh', 'muh', 'daant*', 'ghutne*'],
  harm: ['seedhe kar*', 'seedha kar*', 'tod*', 'theek kar*', 'sahi kar*', 'ukhaad*', 'phod*', 'kaat*'],
  publicShaming: [
    'defaulter board', 'defaulter list', 'notice board', 'naam aur photo', 'poster*', 'banner', 'wahi drama', 'jhoothe ho', 'jhootha hai', 'jhoothe log', 'pakke jhoothe',
    '(sabke|sab ke|logon ke|customers ke|grahakon ke|padosiyon ke|mohalle ke|staff ke|gharwalon ke|bachchon ke) saamne',
    'sareaam', 'bhare bazaar', 'sabko pata chalega', 'tamasha', 'izzat uchhal*', 'naak kat*',
  ],
  audience: ['bazaar*', 'market', 'poore market', 'mohalle*', 'padosi*', 'sab log', 'sabke', 'poori gali', 'poori colony', 'customers', 'grahakon', 'staff'],
  witness: ['saamne', 'dekhenge', 'dekhega', 'dekhegi', 'pata chalega'],
  institution: ['college*', 'school*', 'principal*', 'teacher*', 'hostel*', 'coaching*'],
  lateHours: ['aadhi raat*', 'raat ko', 'raat mein', 'der raat', 'tadke', 'raat (das|gyarah|barah|ek|do) baje', 'raat ke (das|gyarah|barah)', '(subah|tadke) (char|paanch|chhe|chhah|che) baje'],
  relentless: ['roz', 'rozana', 'har roz', 'har din', 'din raat', 'baar baar', 'lagatar', 'jab tak (paisa|paise|payment|bhugtan)', 'jab tak aap'],
  vermin: ['bojh', 'bachche ki tarah', 'choohe*', 'chuhe*', 'kutte*', 'kutta', 'suar*', 'suwar*', 'gadhe*', 'gadha', 'keede*', 'jonk', 'saanp*', 'deemak', 'rats', 'dogs'],
  likeA: ['ki tarah', 'jaise', 'jaisa', 'jaisi', 'tum log', 'aap log', 'like'],
  insult: [
    'koi sharam', 'sharam hai ya nahi', 'sharam nahi aati', 'thodi bhi sharam', 'zara bhi sharam', 'doosron ka paisa kha*', 'doosron ke paise kha*', 'muft ka kha*', 'chain se so rahe',
    'sharam karo', 'sharam kar*', 'rona dhona band', 'rona band kar*', 'besharam*', 'ghatiya', 'neech', 'kameen*', 'haramkhor', 'nikamm*', 'ganwar', 'gawar',
    'jahil', 'badtameez*', 'lutere*', 'thag', 'do kaudi*', 'doob mar*', 'chullu bhar paani', 'muftkhor*', 'namakharam', 'kaamchor',
  ],
  lawOfficer: [
    'cyber (department|police|team|cell|vibhag)', 'thanedar*', 'daroga*', 'sipahi*', 'havaldar*', 'hawaldar*', 'constable*', 'inspector sahab', 'sho', 'thane*', 'thana*', 'police*', 'chowki*', 'kotwal*', 'economic offences wing', 'eow', 'cbi', 'crime branch', 'cyber cell',
  ],
  arrest: ['non bailable', 'gair jamanti', 'giraftar*', 'girftar*', 'giraftari*', 'hirasat*', 'hathkadi*', 'arrest*'],
  capture: ['utha le*', 'utha ke', 'uthakar*', 'uthwa*', 'pakad le*', 'pakad ke', 'pakadkar', 'pakadwa*', 'dhar le*', 'ghasit*', 'le jayenge', 'le jayegi', 'le jayega', 'andar kar*'],
  youObject: [YOU, '(aapke|tumhare) (pati|bete|bhai)'],
  prison: ['jail*', 'jel', 'kaid*', 'salakhon', 'salakh*', 'hawalat', 'lockup', 'karagar', 'tihar*', 'andar jaana', 'andar jaoge', 'andar jayenge', 'chakki pees*'],
  sentence: [
    'criminal case', 'criminal mamla', 'aapradhik mamla', 'saza*', 'sazaa', 'karawas', 'dandniya', 'apradh hai', 'jurm hai', 'crime hai',
  ],
  judiciary: ['nyayadhish*', 'judge', 'judge sahab', 'magistrate*', 'adalat*', 'court*', 'nyayalay*'],
  courtOrder: ['aadesh*', 'order*', 'faisla', 'decree', 'summon*', 'warrant*'],
  summons: ['talab*', 'poochtaach', 'bulayenge', 'bulaya jayega', 'hazir', 'summon*'],
  nowhere: ['kahin bhi', 'kahin par bhi', 'poore india mein', 'poore bharat mein', 'koi bank', 'kisi bank', 'koi bhi bank'],
  denied: ['nahi milega', 'nahi milegi', 'nahi milenge', 'nahi dega', 'nahi degi', 'kabhi nahi milega'],
  documents: ['passport*', 'visa', 'licence*', 'license*', 'driving licence', 'pan card', 'aadhaar*', 'aadhar*', 'gas connection', 'ration card', 'sim*'],
  cancel: ['radd*', 'cancel*', 'block*', 'jabt*', 'band ho jayega', 'band kar diya jayega'],
  againstYou: ['(aapke|tumhare|tere) (khilaf|virudh|naam)', '(aap|tum|tujh) pe', '(aap|tum|tujh) par', '(aapke|tumhare) upar'],
  caseWord: ['case*', 'mukadma*', 'mukadme*', 'mamla', 'fir'],
  crimeCharge: ['dhokhadhadi', 'dhokhe*', 'thagi', 'fraud', 'char sau bees', '420', 'criminal', 'aapradhik', 'dhara*', 'chori', 'cheating'],
  register: ['darj*', 'dayar*', 'daal*', 'thok*', 'karwa*', 'laga denge', 'lagwa*', 'file kar*'],
  creditRecord: ['cibil*', 'credit score', 'credit record', 'credit history', 'sibil*'],
  permanentDamage: ['hamesha', 'zindagi bhar', 'umar bhar', 'umr bhar', 'barbaad', 'tabah', 'zero', 'shunya', 'blacklist*', 'khatam ho jayega', 'kabhi loan nahi'],
  assets: [
    '(aapke|aapka|aapki|tumhare|tumhara|tumhari) (ghar*|makaan*|dukaan*|flat*|plot*|zameen*|gaadi*|gehne*)', 'khaat*', 'account*', 'tankhwah', 'tankha', 'salary', 'vetan', 'pagar', 'sampatti', 'property', 'zameen', 'makaan', 'pension',
  ],
  freeze: [
    'neelami', 'nilami', 'nilam*', 'kabza*', 'kabze*', 'auction*', 'jabti', 'freeze*', 'seize*', 'seal*', 'jabt*', 'kurk*', 'rok di', 'rok diya', 'rok denge', 'rok di jayegi', 'roki jayegi', 'roka jayega', 'neelam*', 'band kar diye jayenge', 'band ho jayenge',
  ],
  legalAction: ['kanooni karyavahi', 'kanooni karwai', 'kanooni kaarvai', 'legal action', 'kanooni prakriya', 'legal proceedings'],
  deadline: ['aaj', 'aaj hi', 'aaj raat', 'shaam tak', 'raat tak', 'turant', 'fauran', 'kuch ghanton mein', 'abhi ke abhi', 'today', 'tonight'],
  product: [
    'health cover', 'health insurance', 'bima cover', 'accident cover', 'life cover',
    'fd', 'fd rate', 'recurring deposit', 'rd', 'bima yojana', 'insurance plan', 'savings plan',
    'top up*', 'topup', 'pre approved loan', 'naya loan', 'doosra loan', 'ek aur loan', 'gold card', 'gold credit card', 'platinum*',
    'add on card', 'doosra card', 'naya credit card', 'limit badh*', 'mutual fund*', 'sip', 'fixed deposit', 'investment plan*',
    '(nayi|naya|naye) (yojana*|scheme*|plan*)',
  ],
  pitch: [
    'jod doon', 'jod du', 'jod sakte*', 'sirf (ek|do|teen|char|paanch|sau)*',
    'special', 'khas', 'khol doon', 'khol du', 'khol dein', 'shuru kar doon',
    'kar doon', 'kar du', 'badha doon', 'abhi kar sakta hoon', 'abhi kar sakti hoon',
    'mil sakta*', 'mil sakti*', 'mil sakte*', 'de sakte*', 'dila sakte*', 'dilwa*', 'chahenge', 'chahengi', 'bhej doon',
    'bhej du', 'bhej dein', 'details bhej*', 'detail bhej*', 'process kar*', 'activate kar*', 'apply kar*', 'le lijiye', 'interested', 'dilchaspi',
    'khaas aapke liye', 'aapke liye khaas', 'pre approved', 'eligible', 'hamare paas', 'sirf aapke liye',
  ],
  perk: [
    '(special|khas) (fd|byaaj|interest) (rate|dar)', 'guaranteed return*', 'pakka return', 'paisa double', '(zyada|behtar) (byaaj|return)', 'percent (off|discount|chhoot)', 'bina annual fee', 'bina saalana fees', 'bina kisi fee', 'zero fee', 'lifetime free', 'cashback', 'reward point*', 'sabse kam byaaj', 'no annual fee',
  ],
  authority: ['rbi', 'reserve bank', 'sarkar*', 'income tax', 'aaykar', 'sebi', 'government'],
  jobLoss: ['naukri chali jayegi', 'naukri jaaye', 'naukri jayegi', 'naukri se nikalwa*', 'naukri chhin*', 'naukri cheen*'],
};
