/**
 * What simulated customers say in the sandbox carrier: two or three natural replies per reply intent per
 * language (Hindi in Devanagari and, separately, romanised Hinglish). Written as real callers speak, not
 * copied from the classifier's keyword lists; a test checks each one classifies to its own intent.
 */
import type { ReplyIntent } from './lexicon/reply/reply-lexicon.ts';

export type SampleReplyLanguage = 'en' | 'hi' | 'hi-Latn' | 'mr' | 'ta' | 'te';

export const sampleReplies: Record<SampleReplyLanguage, Record<ReplyIntent, string[]>> = {
  'en': {
    affirm: ['Yes, go ahead.', 'Okay, that works for me.', "Sure, I'm interested, tell me more."],
    deny: ["No, I'm not interested.", "No thanks, I don't need it.", "Not really, I'll pass."],
    callback_later: [
      "I'm busy right now, call me later.",
      'Can you call me back in the evening?',
      "Not now, I'm driving. Call tomorrow.",
    ],
    request_human: [
      'Can I talk to a real person?',
      'Please connect me to an agent.',
      'I want to speak to someone from customer care.',
    ],
    stop_calling: [
      "Don't call me again.",
      'Please remove my number from your list.',
      'Stop calling me, put me on DND.',
    ],
    wrong_person: ['Wrong number.', "There's no one by that name here.", "That's not me, you have the wrong person."],
  },
  'hi': {
    affirm: ['हाँ जी, बताइए।', 'ठीक है, मुझे मंज़ूर है।', 'जी हाँ, आगे बढ़िए।'],
    deny: ['नहीं, मुझे नहीं चाहिए।', 'नहीं जी, कोई ज़रूरत नहीं है।', 'मुझे इसमें कोई दिलचस्पी नहीं है।'],
    callback_later: ['अभी मैं व्यस्त हूँ, बाद में फ़ोन कीजिए।', 'शाम को कॉल कर लीजिए।', 'अभी नहीं, कल बात करते हैं।'],
    request_human: ['मुझे किसी इंसान से बात करनी है।', 'किसी अधिकारी से बात कराइए।', 'कस्टमर केयर वाले से जोड़ दीजिए।'],
    stop_calling: ['दोबारा फ़ोन मत करना।', 'मेरा नंबर अपनी लिस्ट से हटा दीजिए।', 'बार-बार कॉल करके परेशान मत कीजिए।'],
    wrong_person: ['गलत नंबर है।', 'यहाँ इस नाम का कोई नहीं है।', 'मैं वो नहीं हूँ, आपने गलत जगह फ़ोन किया है।'],
  },
  'hi-Latn': {
    affirm: ['Haan ji, batao.', 'Theek hai, chalega.', 'Haan, main interested hoon, aage bataiye.'],
    deny: ['Nahi chahiye.', 'Nahi ji, koi zarurat nahi hai.', 'Mujhe interest nahi hai.'],
    callback_later: [
      'Abhi busy hoon, baad mein call karna.',
      'Shaam ko phone karo.',
      'Abhi nahi, kal baat karte hain.',
    ],
    request_human: [
      'Mujhe kisi insaan se baat karni hai.',
      'Kisi officer se baat karwao.',
      'Customer care wale se connect karo.',
    ],
    stop_calling: [
      'Dobara call mat karna.',
      'Mera number list se hata do.',
      'Baar baar phone karke pareshan mat karo.',
    ],
    wrong_person: [
      'Galat number hai.',
      'Yahan is naam ka koi nahi hai.',
      'Main woh nahi hoon, aapne galat number lagaya hai.',
    ],
  },
  'mr': {
    affirm: ['हो, सांगा.', 'ठीक आहे, चालेल.', 'हो, मला आवडेल, पुढे बोला.'],
    deny: ['नाही, मला नको.', 'नको, गरज नाही.', 'मला यात काही रस नाही.'],
    callback_later: ['आत्ता मी कामात आहे, नंतर फोन करा.', 'संध्याकाळी फोन करा.', 'आत्ता नाही, उद्या बोलूया.'],
    request_human: [
      'मला कोणत्यातरी माणसाशी बोलायचं आहे.',
      'एखाद्या अधिकाऱ्याशी बोलणं करून द्या.',
      'कस्टमर केअरशी जोडून द्या.',
    ],
    stop_calling: ['परत फोन करू नका.', 'माझा नंबर यादीतून काढून टाका.', 'सारखे फोन करून त्रास देऊ नका.'],
    wrong_person: ['चुकीचा नंबर आहे.', 'इथे या नावाचं कोणी नाही.', 'मी ते नाही, तुम्ही चुकीच्या माणसाला फोन केलाय.'],
  },
  'ta': {
    affirm: ['ஆமாம், சொல்லுங்க.', 'சரி, பரவாயில்லை, தொடருங்க.', 'ஓகே, எனக்கு சம்மதம்.'],
    deny: ['இல்லை, எனக்கு வேண்டாம்.', 'வேண்டாம், தேவையில்லை.', 'எனக்கு இதுல விருப்பம் இல்லை.'],
    callback_later: [
      'இப்போ பிஸியா இருக்கேன், அப்புறம் கூப்பிடுங்க.',
      'சாயங்காலம் கால் பண்ணுங்க.',
      'இப்போ வேண்டாம், நாளைக்கு பேசலாம்.',
    ],
    request_human: [
      'ஒரு மனுஷன் கிட்ட பேசணும்.',
      'அதிகாரி கிட்ட பேச வையுங்க.',
      'கஸ்டமர் கேர் ஆள் கிட்ட கனெக்ட் பண்ணுங்க.',
    ],
    stop_calling: [
      'இனிமே கால் பண்ணாதீங்க.',
      'என் நம்பரை லிஸ்ட்ல இருந்து எடுத்துடுங்க.',
      'திரும்ப திரும்ப கால் பண்ணி தொந்தரவு பண்ணாதீங்க.',
    ],
    wrong_person: [
      'ராங் நம்பர்.',
      'இங்க அந்த பேர்ல யாரும் இல்லை.',
      'நான் அவர் இல்லை, தப்பான நம்பருக்கு கால் பண்ணியிருக்கீங்க.',
    ],
  },
  'te': {
    affirm: ['అవునండి, చెప్పండి.', 'సరే, పర్వాలేదు, కొనసాగించండి.', 'ఓకే, నాకు ఇష్టమే.'],
    deny: ['లేదండి, నాకు వద్దు.', 'వద్దు, అవసరం లేదు.', 'నాకు దీనిపై ఆసక్తి లేదు.'],
    callback_later: [
      'ఇప్పుడు బిజీగా ఉన్నాను, తర్వాత ఫోన్ చేయండి.',
      'సాయంత్రం కాల్ చేయండి.',
      'ఇప్పుడు కాదు, రేపు మాట్లాడదాం.',
    ],
    request_human: [
      'ఎవరైనా మనిషితో మాట్లాడాలి.',
      'ఒక అధికారితో మాట్లాడించండి.',
      'కస్టమర్ కేర్ వాళ్ళకి కనెక్ట్ చేయండి.',
    ],
    stop_calling: ['మళ్ళీ కాల్ చేయకండి.', 'నా నంబర్‌ని మీ లిస్ట్ నుండి తీసేయండి.', 'పదే పదే ఫోన్ చేసి విసిగించకండి.'],
    wrong_person: ['రాంగ్ నంబర్.', 'ఇక్కడ ఆ పేరుతో ఎవరూ లేరు.', 'నేను వారు కాదు, మీరు తప్పు నంబర్‌కి చేశారు.'],
  },
};
