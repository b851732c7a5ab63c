import type { LexiconKey } from '../../shared/text/lexicon-selection.ts';
import type { ComplianceLexicon } from './compliance-lexicon.ts';
import type { ConceptLexicon } from './concepts.ts';
import { en as enConcepts } from './concepts/en.ts';
import { hi as hiConcepts } from './concepts/hi.ts';
import { hiLatn as hiLatnConcepts } from './concepts/hi-latn.ts';
import { mr as mrConcepts } from './concepts/mr.ts';
import { ta as taConcepts } from './concepts/ta.ts';
import { te as teConcepts } from './concepts/te.ts';
import { en } from './en.ts';
import { hi } from './hi.ts';
import { hiLatn } from './hi-latn.ts';
import { mr } from './mr.ts';
import { ta } from './ta.ts';
import { te } from './te.ts';

export const complianceLexicons: Readonly<Record<LexiconKey, ComplianceLexicon>> = { en, hi, 'hi-latn': hiLatn, mr, ta, te };

/** Each language's concept classes (domain/compliance/lexicon/concepts.ts). */
export const conceptLexicons: Readonly<Record<LexiconKey, ConceptLexicon>> = {
  en: enConcepts,
  hi: hiConcepts,
  'hi-latn': hiLatnConcepts,
  mr: mrConcepts,
  ta: taConcepts,
  te: teConcepts,
};
