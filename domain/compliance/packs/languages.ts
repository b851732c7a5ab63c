/** The base languages whose lexicons every language-dependent post-call rule covers (Hinglish rides on `hi`/`en`). */
export const COMPLIANCE_LANGUAGES: readonly string[] = ['hi', 'ta', 'en', 'te', 'mr'];
