import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FALSE_CLAIM_PATTERNS, THREAT_PATTERNS } from '../../../domain/compliance/lexicon/concepts.ts';
import { findPattern } from '../../../domain/compliance/phrase-finder.ts';

const options = { negatable: true } as const;
const threat = (text: string, language: string) => findPattern(text, language, THREAT_PATTERNS, options);
const claim = (text: string, language: string) => findPattern(text, language, FALSE_CLAIM_PATTERNS, options);

// Given a claim said in pieces that only commas separate, when the patterns are searched, then its parts are found
// across the commas; a negator still reaches only its own piece, and a full stop still ends the claim.

test('a claim split by commas is one claim: its parts are taken from pieces next to each other', () => {
  assert.ok(claim('Listen, the bank has gone to the magistrate, your salary, your savings, everything gets attached.', 'en-IN') !== null);
  assert.ok(claim('ये नहीं भरा तो देश में कहीं भी, किसी बैंक से, लोन नहीं मिलेगा।', 'hi-IN') !== null);
  assert.ok(claim('Your pension, your bank accounts, both get frozen by Friday.', 'en-IN') !== null);
});

test('a negator across a comma still negates nothing: each part is negated or not in its own piece', () => {
  assert.is(claim('Your bank accounts, nobody will freeze them, sir.', 'en-IN'), null);
  assert.is(threat('I understand madam, nobody will speak to your husband, we will talk only to you.', 'en-IN'), null);
});

test('a full stop ends the claim: parts in two sentences are not joined', () => {
  assert.is(claim('Your bank accounts are with us. Nothing is frozen.', 'en-IN'), null);
  assert.is(claim('Your salary account is active. The attached statement shows it.', 'en-IN'), null);
});

// Given a threat or claim followed by a clause of its own ("that …", "until …", "कि …", "जब तक …"), when its
// negation is decided, then a negator in that following clause does not deny the threat before it.

test('a negator inside a "that" / "कि" clause after the threat does not deny it', () => {
  assert.ok(threat('आपके दामाद को आज ही मैसेज जाएगा कि आप पैसे नहीं लौटाते।', 'hi-IN') !== null);
  assert.ok(threat('Aapke damaad ko aaj hi message jayega ki aap paisa nahi lautate.', 'hi-IN') !== null);
  assert.ok(threat('We will inform your employer that you do not pay your dues.', 'en-IN') !== null);
});

test('"until you pay" (जब तक … नहीं) is the idiom of a threat, not its denial', () => {
  assert.ok(threat('हमारे लड़के आपकी दुकान पर खड़े रहेंगे जब तक पैसा नहीं मिलता।', 'hi-IN') !== null);
});

test('a claim joined by "and you" keeps its own verb: the next clause\'s "won\'t" does not deny it', () => {
  assert.ok(claim("Your driving licence will be revoked and you won't be able to drive.", 'en-IN') !== null);
});

test('a denial right after the words still denies them', () => {
  assert.is(threat('Our boys will not come to your shop, sir.', 'en-IN'), null);
  assert.is(claim('Aapka account freeze nahi hoga, jail ki koi baat nahi hai.', 'hi-IN'), null);
  assert.is(threat('हमारे लोग आपके घर नहीं आएंगे।', 'hi-IN'), null);
});

test.run();
