/** English reply keywords. */
import type { ReplyLexicon } from './reply-lexicon.ts';

export const englishReplies: ReplyLexicon = {
  affirm: [
    'yes', 'yeah', 'yep', 'yup', 'sure', 'okay', 'ok', 'fine', 'go ahead', 'tell me', 'tell me more', 'continue',
    'please continue', 'interested', 'i am interested', 'sounds good', 'of course', 'definitely', 'alright',
    'all right', 'correct', "that's right", 'speaking', 'i agree', 'agreed', 'why not', 'proceed', 'please proceed',
    'that works', 'works for me', 'not busy', "i'm free", 'absolutely', 'no problem', 'go on', 'carry on',
  ],
  deny: [
    'no', 'nope', 'nah', 'not interested', "don't want", 'do not want', "don't need", 'do not need', 'no thanks',
    'no thank you', 'not really', "i'll pass", 'not required', 'no need', 'never mind', 'not for me', 'i refuse',
    'not at all', 'definitely not',
  ],
  callback_later: [
    'busy', "i'm busy", 'call later', 'call me later', 'call back', 'call me back', 'callback', 'later', 'not now',
    'not right now', 'call tomorrow', 'call me tomorrow', 'talk tomorrow', 'in the evening', 'after some time',
    'some other time', 'another time', 'in a meeting', 'driving', 'bad time', 'not a good time', 'in an hour',
    'next week', 'ring me later', 'talk later', 'call in the evening', 'call me in the evening', 'ring me back',
  ],
  request_human: [
    'real person', 'human', 'a person', 'speak to someone', 'talk to someone', 'agent', 'executive', 'officer',
    'manager', 'supervisor', 'customer care', 'representative', 'operator', 'connect me', 'transfer me', 'robot',
    'machine', 'live person', 'talk to a person', 'speak to a person',
  ],
  stop_calling: [
    "don't call", 'do not call', 'stop calling', 'never call', "don't call me again", 'remove my number',
    'delete my number', 'dnd', 'do not disturb', 'unsubscribe', 'no more calls', 'stop these calls', 'take me off',
    'stop bothering me', "don't bother me", 'take my number off',
  ],
  wrong_person: [
    'wrong number', 'wrong person', 'no one by that name', 'nobody by that name', 'no such person', 'not me',
    "that's not me", "doesn't live here", 'does not live here', 'not his number', 'not her number',
    'you have the wrong', "i'm not him", "i'm not her", "don't know him", "don't know her", 'not the person',
  ],
};
