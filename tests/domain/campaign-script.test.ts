import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractVariables, missingVariables, renderTemplate } from '../../domain/script-template.ts';
import { isE164 } from '../../domain/shared/phone.ts';
import { baseLanguage, isBcp47Shape, isSupportedLanguage } from '../../domain/shared/language.ts';
import { isDisposition } from '../../domain/shared/disposition.ts';

// The script a campaign runs: templates, and the shared value types calling uses.

test('extractVariables: identifiers in braces, each once, in order', () => {
  assert.equal(extractVariables('Namaste {name}, aapka {loan_amount} ka loan. {name}?'), ['name', 'loan_amount']);
  assert.equal(extractVariables('JSON {"a": 1} and { spaced } and {{literal}}'), []);
});

test('renderTemplate fills values and closes up missing ones', () => {
  assert.is(renderTemplate('Hello {name}, you owe {amount}.', { name: 'Asha', amount: 5000 }), 'Hello Asha, you owe 5000.');
  assert.is(renderTemplate('Hello {name}, welcome.', {}), 'Hello, welcome.');
  assert.is(renderTemplate('Braces {{x}} stay', {}), 'Braces {x} stay');
  assert.is(renderTemplate('नमस्ते {name} जी', { name: 'आशा' }), 'नमस्ते आशा जी');
  assert.equal(missingVariables('Hi {name} {city}', { name: 'A', city: null }), ['city']);
});

test('value types: E.164, BCP-47 shape vs supported, dispositions', () => {
  assert.ok(isE164('+919876543210'));
  assert.not.ok(isE164('919876543210'));
  assert.not.ok(isE164('+0198765432'));
  assert.not.ok(isE164('+91123'));
  assert.ok(isBcp47Shape('fr-FR'));
  assert.not.ok(isBcp47Shape('hindi'));
  assert.not.ok(isBcp47Shape('hi_IN'));
  assert.ok(isSupportedLanguage('ta-IN'));
  assert.ok(isSupportedLanguage('en-GB'));
  assert.not.ok(isSupportedLanguage('fr-FR'));
  assert.is(baseLanguage('mr-IN'), 'mr');
  assert.ok(isDisposition('dnd'));
  assert.not.ok(isDisposition('busy'));
});

test.run();
