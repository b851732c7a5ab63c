import { createHmac, timingSafeEqual } from 'node:crypto';
import { loadOrCreateKey } from './local-key.ts';

/**
 * Signed URLs for what we serve without a bearer key (call recordings): `path?expires=<unix seconds>&signature=
 * <hex HMAC-SHA256 of "path\nexpires">`. Anyone holding the URL can fetch the object until it expires; changing
 * the path or the expiry breaks the signature.
 */
export class UrlSigner {
  constructor(private readonly secret: Buffer) {}

  /** The query string (without `?`) that makes `path` fetchable until `expiresAt`. */
  sign(path: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `expires=${expires}&signature=${this.signature(path, expires)}`;
  }

  /** `valid`, `expired` or `invalid` (missing, malformed or tampered). Expiry is checked after the signature. */
  verify(path: string, expires: string | undefined, signature: string | undefined, now: Date): 'valid' | 'expired' | 'invalid' {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
    const expected = Buffer.from(this.signature(path, Number(expires)), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
    return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'valid';
  }

  private signature(path: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${expires}`).digest('hex');
  }
}

/**
 * The signing secret: `URL_SIGNING_SECRET` when set, otherwise a random one kept in `DATA_DIR/url-signing.key`
 * (infra/local-key.ts), so URLs survive restarts.
 */
export function loadUrlSigner(keyPath: string, configured?: string): UrlSigner {
  return new UrlSigner(loadOrCreateKey(keyPath, configured));
}
