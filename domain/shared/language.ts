/**
 * Languages. Two separate questions: is a code shaped like BCP-47 `<language>-<REGION>` (else 400
 * invalid_parameter, "not BCP-47"), and do we have a voice and a reply lexicon for it (else 400 invalid_parameter,
 * "unsupported language")? The spec lists the five Indian codes; we also accept `en-US` and `en-GB`, which use the
 * same English voice and lexicon as `en-IN` (a campaign for an international desk should not need to lie about
 * its language).
 */
export const SUPPORTED_LANGUAGES = ['hi-IN', 'ta-IN', 'en-IN', 'te-IN', 'mr-IN', 'en-US', 'en-GB'] as const;

export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

/** The language part of a supported code: what voices and lexicons are keyed by. */
export type BaseLanguage = 'hi' | 'ta' | 'en' | 'te' | 'mr';

// `<language>-<REGION>`: 2-3 letter lower-case language subtag, 2 letter upper-case region (the spec's shape).
const BCP47_SHAPE = /^[a-z]{2,3}-[A-Z]{2}$/;

export const BCP47_DESCRIPTION = 'BCP-47 language code <language>-<REGION>, e.g. hi-IN';
export const SUPPORTED_LANGUAGES_DESCRIPTION = `one of ${SUPPORTED_LANGUAGES.join(', ')}`;

export function isBcp47Shape(code: unknown): code is string {
  return typeof code === 'string' && BCP47_SHAPE.test(code);
}

export function isSupportedLanguage(code: unknown): code is SupportedLanguage {
  return typeof code === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(code);
}

export function baseLanguage(code: SupportedLanguage): BaseLanguage {
  return code.slice(0, 2) as BaseLanguage;
}

/** `hi-IN` → `hi`, `en` → `en`: the key of voices, recognisers, lexicons and scorecard phrases. */
export function languageSubtag(language: string): string {
  return language.trim().split(/[-_]/)[0]!.toLowerCase();
}
