import { languageSubtag, type BaseLanguage } from '../../domain/shared/language.ts';

/**
 * What a warm transfer says (docs/telephony.md, "Warm transfer"): the whisper the agent hears before the bridge,
 * and the fallback the customer hears when no agent answers. The whisper is the escalation summary, which is
 * written in English (conversation-result.ts), so it is spoken in English; the fallback is in the call's language.
 */
export const WHISPER_LANGUAGE = 'en-IN';
/** The step id of the fallback's turn in the conversation. */
export const TRANSFER_FALLBACK_STEP_ID = 'transfer_fallback';

export function whisperText(summary: string, customerName: unknown): string {
  const name = typeof customerName === 'string' && customerName.trim() !== '' ? ` from ${customerName.trim()}` : '';
  return `Transferred call${name}. ${summary}`;
}

const FALLBACK: Record<BaseLanguage, string> = {
  en: 'Sorry, no agent is free right now. We will call you back soon. Thank you.',
  hi: 'माफ़ कीजिए, अभी कोई एजेंट उपलब्ध नहीं है। हम आपको जल्द ही वापस कॉल करेंगे। धन्यवाद।',
  ta: 'மன்னிக்கவும், இப்போது எந்த முகவரும் கிடைக்கவில்லை. விரைவில் உங்களை மீண்டும் அழைப்போம். நன்றி.',
  te: 'క్షమించండి, ప్రస్తుతం ఏజెంట్ ఎవరూ అందుబాటులో లేరు. మేము త్వరలో మీకు మళ్లీ కాల్ చేస్తాము. ధన్యవాదాలు.',
  mr: 'माफ करा, सध्या कोणताही एजंट उपलब्ध नाही. आम्ही तुम्हाला लवकरच परत कॉल करू. धन्यवाद.',
};

export function transferFallbackText(language: string): string {
  return FALLBACK[languageSubtag(language) as BaseLanguage] ?? FALLBACK.en;
}
