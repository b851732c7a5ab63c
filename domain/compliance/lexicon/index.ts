import type { LexiconKey } from '../../shared/text/lexicon-selection.ts';
import type { ComplianceLexicon } from './compliance-lexicon.ts';
import { en } from './en.ts';
import { hi } from './hi.ts';
import { hiLatn } from './hi-latn.ts';
import { mr } from './mr.ts';
import { ta } from './ta.ts';
import { te } from './te.ts';

export const complianceLexicons: Readonly<Record<LexiconKey, ComplianceLexicon>> = { en, hi, 'hi-latn': hiLatn, mr, ta, te };
