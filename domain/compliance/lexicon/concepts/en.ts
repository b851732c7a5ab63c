import type { ConceptLexicon } from '../concepts.ts';

const YOUR = '(your|ur|yours)';

/** English concept classes (Indian English of collection, bank-service and sales calls). */
export const en: ConceptLexicon = {
  yourPlace: [
    `${YOUR} (house|home|door|doorstep|doorsteps|gate|office|workplace|work place|shop|store|factory|godown|warehouse|showroom|society|colony|building|flat|apartment|village|street|lane|locality|neighbourhood|neighborhood|company|school|kids school|factory gate|office gate|clinic|restaurant|hotel)`,
    'where you (live|work|stay)',
  ],
  arrival: [
    'sit at', 'sit in', 'sit inside', 'sitting at', 'sitting in', 'will sit', 'stay at', 'staying at', 'park themselves',
    'come', 'comes', 'coming', 'visit', 'visiting', 'reach', 'reaching', 'stand', 'standing', 'turn up', 'turning up',
    'show up', 'showing up', 'wait outside', 'waiting outside', 'waiting at', 'camp', 'camping', 'land up', 'drop by',
    'be there', 'pay a visit', 'knock', 'knocking', 'sit outside', 'sitting outside', 'gather', 'surround', 'barge',
    'at your door', 'outside your',
  ],
  yourCircle: [
    'every (relative|relation|contact|friend|neighbour|neighbor|colleague)', 'all (your|ur) (contacts|relatives|relations|friends|colleagues|neighbours|neighbors)', 'everyone in (your|ur) (contacts|contact list|phone|phonebook|family)', '(your|ur) (contacts|contact list|phonebook|phone contacts)',
    `${YOUR} (family*|wife*|husband*|father*|mother*|dad*|mom*|mum*|parents*|son|sons|daughter*|kids|childrens|kids|children|brother*|sister*|father in law|mother in law|in laws|inlaws|relatives|relations|neighbours|neighbors|colleagues|coworkers|co workers|boss|manager|supervisor|employer|company|hr|hr department|human resources|staff|friends|references|referees|guarantor|landlord|society secretary|office|team lead)`,
    '(his|her) (son in law|daughter in law)',
  ],
  disclosure: [
    'get a message', 'gets a message', 'receive a message', 'will be messaged', 'will be informed', 'will be told', 'will know',
    'tell', 'telling', 'told', 'inform', 'informing', 'informed', 'let them know', 'let him know', 'let her know',
    'find out', 'found out', 'know about', 'hear about', 'learn about', 'email', 'emailing', 'mail', 'write to',
    'message', 'whatsapp', 'ring him', 'ring her', 'ring them', 'call him', 'call her', 'call them', 'call up',
    'contact', 'contacting', 'expose', 'share', 'sharing', 'report you', 'complain to', 'call', 'ring', 'phone', 'visit',
  ],
  ourMen: [
    '(our|my) (two|three|four|five|six|ten|few|some|couple of) (boys|men|guys|people|fellows|agents)', '(two|three|four|five|six|ten) of our (boys|men|guys|people|fellows|agents)',
    '(our|my) (boys|men|guys|people|team|field team|recovery team|recovery guys|recovery boys|recovery agents|agents|collection team|collection boys|bouncers|goons|fellows)',
    'send someone', 'send people', 'send our', 'someone who',
  ],
  violence: [
    'physically', 'physical', 'beat', 'beating', 'thrash', 'thrashing', 'hurt', 'handle you', 'deal with you', 'fix you',
    'sort you out', 'teach you', 'not be pleasant', 'wont be pleasant', 'rough you up', 'bash', 'slap',
  ],
  bodyPart: ['legs', 'leg', 'hands', 'hand', 'bones', 'bone', 'face', 'teeth', 'knees', 'head', 'arms'],
  harm: ['break', 'breaking', 'broken', 'smash', 'crack', 'straighten', 'fix', 'twist', 'cut'],
  publicShaming: [
    'defaulter board', 'defaulters board', 'defaulter list', 'notice board', 'name and photo', 'photo and name', 'poster', 'posters', 'banner', 'same drama',
    'in front of (everyone|everybody|all|people|your neighbours|your neighbors|your staff|your colleagues|your customers|your family|your kids|your children|the whole)',
    'in public', 'publicly', 'everyone will see', 'whole (colony|society|building|street|office|village|locality) will (know|see|hear)',
    'make a scene', 'create a scene', 'name and shame',
  ],
  audience: ['market', 'bazaar', 'neighbours', 'neighbors', 'everyone', 'everybody', 'whole street', 'whole colony', 'whole society', 'whole office', 'your customers', 'your staff', 'your colleagues', 'the whole building', 'passers by'],
  witness: ['will see', 'will watch', 'can see', 'see it', 'watch it', 'in front of', 'will know', 'will hear'],
  institution: ['college', 'school', 'university', 'principal', 'teacher', 'hostel', 'coaching'],
  lateHours: [
    'midnight', 'late night', 'late at night', 'at night', 'in the night', 'all night', 'odd hours', 'early morning',
    '(ten|eleven|twelve|10|11|12) (at night|pm|in the night|oclock at night)', '(three|four|five|six|3|4|5|6) (in the morning|am)',
  ],
  relentless: [
    'every day', 'every single day', 'every night', 'every hour', 'every morning', 'daily', 'until you pay', 'till you pay',
    'untill you pay', 'again and again', 'non stop', 'nonstop', 'round the clock', 'all day', 'day and night',
  ],
  vermin: ['burden', 'burdens', 'baby', 'rat', 'rats', 'dog', 'dogs', 'pig', 'pigs', 'donkey', 'donkeys', 'parasite', 'parasites', 'leech', 'leeches', 'vermin', 'cockroach', 'cockroaches', 'snake', 'snakes', 'worm', 'worms'],
  likeA: ['like', 'you people', 'you are', 'youre', 'such'],
  insult: [
    'have you no shame', 'have you got no shame', 'any shame', 'no shame at all', 'eating other peoples money', "eating other people's money", 'eating others money', 'living on other peoples money', 'sleeping peacefully on', 'sleep peacefully',
    'cheap fellow', 'cheapster', 'loser', 'scum', 'moron', 'dumb', 'deaf', 'clown', 'good for nothing', 'worthless',
    'low life', 'lowlife', 'scoundrel', 'crook', 'fraudster', 'swindler', 'shame on you', 'have some shame', 'disgusting',
    'filthy', 'stop crying', 'stop whining', 'grow a spine', 'nonsense fellow', 'third class', 'donkey', 'buffoon', 'jobless fellow', 'characterless', 'shut up',
  ],
  lawOfficer: [
    'cyber (department|police|team|wing|cell)',
    'constable', 'constables', 'sho', 'station house officer', 'sub inspector', 'police inspector', 'inspector sahab',
    'inspector saheb', 'thanedar', 'havaldar', 'hawaldar', 'daroga', 'cop', 'cops', 'police station', 'local station',
    'thana', 'patrol', 'commissioner', 'economic offences wing', 'economic offense wing', 'eow', 'cbi', 'enforcement directorate', 'crime branch', 'cyber cell', 'cyber crime',
  ],
  arrest: ['non bailable', 'nonbailable', 'arrest', 'arrested', 'arresting', 'arrests', 'detain', 'detained', 'detention', 'custody', 'handcuff', 'handcuffs', 'handcuffed'],
  capture: [
    'pick you up', 'picked you up', 'take you away', 'drag you', 'haul you', 'come for you', 'come and get you',
    'take you in', 'lift you',
  ],
  youObject: ['you', 'your husband', 'your son', 'him', 'her'],
  prison: ['prison', 'imprison', 'imprisoned', 'imprisonment', 'jail', 'jailed', 'behind bars', 'lockup', 'lock up', 'in the cell', 'inside for'],
  sentence: [
    'criminal matter', 'criminal case now', 'a criminal case', 'sentenced', 'sentence of', 'punishable', 'years in', 'rigorous', 'years of punishment', 'criminal offence', 'criminal offense',
  ],
  judiciary: ['judge', 'judges', 'magistrate', 'magistrates', 'bailiff', 'bailiffs', 'court officer', 'high court', 'sessions court', 'the court'],
  courtOrder: ['order', 'orders', 'decree', 'ruling', 'verdict', 'summons', 'summon', 'warrant'],
  summons: ['summon', 'summons', 'summoned', 'interrogate', 'interrogation', 'questioning', 'inquiry', 'enquiry'],
  nowhere: ['anywhere in india', 'nowhere in india', 'any bank', 'no bank', 'anywhere', 'any lender', 'no lender'],
  denied: ['never get', 'will not get', 'wont get', 'will never', 'will not give', 'wont give', 'never give', 'will ever give', 'will give you a loan', 'will lend you'],
  documents: ['passport', 'visa', 'driving licence', 'driving license', 'licence', 'license', 'pan card', 'aadhaar', 'aadhar', 'gas connection', 'ration card', 'sim card', 'mobile number'],
  cancel: ['cancel', 'cancelled', 'canceled', 'revoke', 'revoked', 'suspended', 'impounded', 'blocked', 'seized', 'deactivated'],
  againstYou: ['against you', 'in your name', 'on your name', 'against your name', 'on you'],
  caseWord: ['case', 'cases', 'fir', 'lawsuit', 'charges', 'charge sheet', 'chargesheet', 'complaint'],
  crimeCharge: ['cheating', 'fraud', 'criminal', 'forgery', '420', 'penal', 'ipc', 'theft', 'embezzlement', 'breach of trust'],
  register: ['register', 'registering', 'registered', 'file', 'filed', 'filing', 'lodge', 'lodged', 'lodging', 'slap', 'book you', 'booked'],
  creditRecord: ['cibil', 'credit score', 'credit record', 'credit history', 'credit report', 'cibil score', 'credit rating'],
  permanentDamage: ['permanent', 'permanently', 'forever', 'for life', 'lifetime', 'destroy', 'destroyed', 'ruin', 'ruined', 'zero', 'blacklist', 'blacklisted', 'finished', 'never get', 'no bank'],
  assets: [
    '(your|ur) (home|flat|shop|plot|land|jewellery|jewelry|business)', 'the house', 'the property', `${YOUR} (account|accounts|bank account|bank accounts|salary|property|house|car|vehicle|bike|assets|land|gold|pension|savings)`, 'bank accounts', 'salary',
  ],
  freeze: [
    'auction', 'put up for auction', 'taken over', 'take possession', 'possession of', 'repossess', 'repossessed', 'locked and sealed', 'attached by', 'freeze', 'frozen', 'freezing', 'attach', 'attached', 'seize', 'seized', 'confiscate', 'confiscated', 'auction', 'auctioned', 'sealed', 'withheld', 'garnish', 'garnished',
  ],
  legalAction: ['legal action', 'legal proceedings', 'legal proceeding', 'legal case', 'legal steps', 'court proceedings', 'litigation', 'legal team'],
  deadline: ['today', 'tonight', 'by evening', 'this evening', 'by tonight', 'within an hour', 'within hours', 'within two hours', 'right now', 'immediately', 'by end of day', 'this afternoon'],
  // Only what a service call would not be about: an upsell (a top-up, a new or upgraded card, a limit increase, an
  // investment). A loan, a credit card or an insurance policy by itself is what many service calls discuss.
  product: [
    'health cover', 'health insurance', 'accident cover', 'life cover', 'insurance cover', 'add on cover', 'protection plan', 'personal accident',
    'fd', 'fds', 'fd rate', 'deposit scheme', 'recurring deposit', 'rd', 'savings plan', 'insurance plan', 'ulip',
    'top up', 'topup', 'pre approved loan', 'preapproved loan', 'new loan', 'another loan', 'additional loan', 'second loan',
    'gold card', 'platinum card', 'premium card', 'add on card', 'second card', 'another card', 'new credit card', 'upgrade your card',
    'increase your card limit', 'increase your limit', 'increase your credit limit', 'limit increase', 'limit enhancement',
    'mutual fund', 'mutual funds', 'sip', 'fixed deposit', 'investment plan', 'investment plans', 'demat', 'new plans', 'new scheme',
  ],
  pitch: [
    'for just', 'for only', 'shall i add', 'can add', 'want me to add', 'add it for you',
    'shall i open', 'open one for you', 'shall i start', 'want me to open', 'shall i book one',
    'i can do it right now', 'would you like to increase', 'would you like to upgrade',
    'can give you', 'can offer', 'can get you', 'eligible for', 'you are eligible', 'would you like to hear', 'like to hear',
    'like to know about', 'would you like to take', 'would you like to apply', 'would you like to get', 'would you like to avail',
    'interested in', 'interested', 'shall i process', 'shall i apply', 'shall i book', 'want me to process',
    'want me to apply', 'avail', 'sign you up', 'we have a', 'we have an', 'at just', 'only for you', 'limited period',
    'special', 'exclusive', 'can send you', 'share the details', 'send the details', 'send you the details', 'can i share',
  ],
  perk: [
    'special (fd|deposit|interest|savings) rate', 'guaranteed return', 'guaranteed returns', 'assured return', 'assured returns', 'double your money', '(higher|better|best) (return|returns|rate|interest)',
    'no annual fee', 'zero annual fee', 'no joining fee', 'zero joining fee', 'lifetime free', 'zero processing fee',
    'no processing fee', 'complimentary', '(percent|per cent) (off|discount)', 'discount of', 'reward points', 'lowest rate', 'lowest interest', 'cashback', 'cash back',
  ],
  authority: ['rbi', 'reserve bank', 'the government', 'government of india', 'income tax department', 'income tax', 'sebi', 'the ministry', 'central government'],
  jobLoss: ['lose your job', 'lose ur job', 'get you fired', 'have you fired', 'your job will go', 'you will be fired', 'you will lose your job', 'cost you your job'],
};
