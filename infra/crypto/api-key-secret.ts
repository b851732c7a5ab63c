import { hash, randomBytes } from 'node:crypto';

// `vcs_` + 40 lowercase base32 characters (200 random bits).
const SECRET_PATTERN = /^vcs_[0-9a-z]{40}$/;

export function newApiKeySecret(): string {
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  const bytes = randomBytes(40);
  let secret = 'vcs_';
  for (const byte of bytes) secret += alphabet[byte & 31];
  return secret;
}

export function isWellFormedApiKeySecret(token: string): boolean {
  return SECRET_PATTERN.test(token);
}

// Anything shaped like one of our secrets, in any case, anywhere in a text.
const SECRET_INSIDE = /vcs_[0-9a-z]{40}/i;

/** Whether `text` (a URL, a header a client chose) carries something shaped like an API key. */
export function containsApiKeySecret(text: string): boolean {
  return SECRET_INSIDE.test(text);
}

/** `text` with everything shaped like an API key replaced by `[redacted]` (for logs). */
export function redactApiKeySecrets(text: string): string {
  return text.replace(/vcs_[0-9a-z]{40}/gi, '[redacted]');
}

/** SHA-256, hex. The one-shot `hash` (not `createHash`): it runs on every authenticated request, at half the cost. */
export function hashApiKeySecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}
