/**
 * The words that name days and times in the call languages: relative days (tomorrow, कल, उद्या, நாளை, రేపు),
 * weekdays, "the 15th"-style day markers, periods (next week, month end) and times of day. Phrases use the
 * matching of domain/shared/text/normalize.ts: a word ending in `*` matches its inflected forms (गुरुवारी,
 * சனிக்கிழமை வந்து, శుక్రవారం లోపు).
 */

/** Days named relative to today. Hindi कल is "yesterday" as well; in a call that agrees a next step it is tomorrow. */
export const RELATIVE_DAYS = [
  'today', 'tomorrow', 'day after tomorrow', 'tonight', 'this evening',
  'aaj', 'kal', 'parso', 'parson', 'parsoon',
  'आज', 'कल', 'परसों', 'आज ही',
  'उद्या', 'परवा', 'आजच',
  'இன்று', 'இன்னைக்கு', 'நாளை', 'நாளைக்கு', 'நாளன்னைக்கு', 'நாளை மறுநாள்',
  'ఈరోజు', 'ఇవాళ', 'ఈ రోజు', 'రేపు', 'ఎల్లుండి',
];

export const WEEKDAYS = [
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'somvar', 'mangalvar', 'budhvar', 'guruvar', 'shukravar', 'shanivar', 'ravivar', 'itvaar', 'itwar',
  'सोमवार*', 'मंगलवार*', 'बुधवार*', 'गुरुवार*', 'बृहस्पतिवार*', 'शुक्रवार*', 'शनिवार*', 'रविवार*', 'इतवार*',
  'मंगळवार*',
  'திங்கள்*', 'திங்கட்கிழமை*', 'செவ்வாய்க்கிழமை*', 'புதன்கிழமை*', 'வியாழக்கிழமை*', 'வெள்ளிக்கிழமை*',
  'சனிக்கிழமை*', 'ஞாயிற்றுக்கிழமை*', 'ஞாயிறு*',
  'సోమవార*', 'మంగళవార*', 'బుధవార*', 'గురువార*', 'శుక్రవార*', 'శనివార*', 'ఆదివార*',
];

/** Words that make a weekday a particular one: next Monday, अगले सोमवार, पुढच्या सोमवारी, அடுத்த திங்கள், వచ్చే సోమవారం. */
export const NEXT_OR_THIS = ['next', 'this', 'coming', 'agle', 'is', 'अगले', 'इस', 'आने वाले', 'पुढच्या', 'या', 'येत्या', 'அடுத்த', 'இந்த', 'వచ్చే', 'ఈ'];

/** Periods: "next week", "month end", अगले महीने, महिनाअखेर, அடுத்த வாரம், వచ్చే నెల. */
export const PERIODS = [
  'next week', 'next month', 'this week', 'this month', 'month end', 'end of the month', 'end of this month',
  'weekend', 'this weekend',
  'agle hafte', 'agle mahine', 'is hafte', 'mahine ke end',
  'अगले हफ्ते', 'अगले सप्ताह', 'अगले महीने', 'इस हफ्ते', 'इस महीने', 'महीने के अंत*', 'महीने के आखिर*',
  'पुढच्या आठवड्या*', 'पुढच्या महिन्या*', 'या आठवड्या*', 'या महिन्या*', 'महिनाअखेर*', 'महिन्याच्या शेवटी',
  'அடுத்த வார*', 'அடுத்த மாச*', 'அடுத்த மாத*', 'இந்த வார*', 'இந்த மாச*', 'மாச கடைசி*', 'மாசக் கடைசி*',
  'వచ్చే వారం*', 'వచ్చే నెల*', 'ఈ వారం*', 'ఈ నెల*', 'నెలాఖరు*', 'నెల చివర*',
];

/** A word after a day number that makes it a date: 15 तारीख, 10 तारखेला, 15 தேதி, 15వ తేదీ. */
export const DAY_OF_MONTH_MARKERS = ['tarikh', 'tareekh', 'तारीख*', 'तारख*', 'தேதி*', 'తేదీ*', 'తారీఖు*'];
/** An ordinal ending written onto the digits: 15th, 15ஆம், 15வது, 15వ. */
export const ORDINAL_SUFFIXES = ['st', 'nd', 'rd', 'th', 'ஆம்', 'ம்', 'வது', 'వ', 'వది', 'న'];

/** A word after an hour that makes it a time: 6 pm, 10 बजे, 5 वाजता, 4 மணிக்கு, 6 గంటలకు. */
export const HOUR_MARKERS = ['pm', 'am', 'oclock', 'baje', 'बजे', 'वाज*', 'மணி*', 'గంట*'];
/** A word before an hour that makes it a time: "after six", "around 10". */
export const HOUR_PREFIXES = ['after', 'around', 'before', 'by', 'at'];

export const TIMES_OF_DAY = [
  'morning', 'afternoon', 'evening', 'night', 'noon', 'lunch time',
  'subah', 'dopahar', 'shaam', 'sham', 'raat',
  'सुबह', 'दोपहर', 'शाम', 'रात',
  'सकाळ*', 'दुपार*', 'संध्याकाळ*', 'रात्री',
  'காலை*', 'மதிய*', 'சாயங்கால*', 'மாலை*', 'ராத்திரி*', 'இரவு*',
  'ఉదయం', 'పొద్దున*', 'మధ్యాహ్నం', 'సాయంత్రం', 'రాత్రి*',
];
