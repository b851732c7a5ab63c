import { createHash, randomBytes } from 'node:crypto';

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

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
