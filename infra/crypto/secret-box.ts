import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { loadOrCreateKey } from './local-key.ts';

const VERSION = 'v1';

/** A sealed value that cannot be opened: the key changed, or the text was altered or belongs to something else. */
export class UnreadableSecret extends Error {
  constructor() {
    super('the sealed secret cannot be opened with this key (SECRETS_KEY or DATA_DIR/secrets.key changed?)');
    this.name = 'UnreadableSecret';
  }
}

/**
 * Seals secrets we must use again later but must not keep readable in events (webhook signing secrets): AES-256-GCM
 * under a key that stays with the service, not in the event store, so a copy of the events (an auditor's export, a
 * replica, EventStoreDB's own storage) holds no usable secret. Each value is bound to what it belongs to (`owner`,
 * e.g. the webhook id), so a sealed value copied onto another owner does not open. Text form:
 * `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** `keyMaterial` of any length: the AES key is its SHA-256. */
  constructor(keyMaterial: Buffer) {
    this.key = createHash('sha256').update(keyMaterial).digest();
  }

  seal(plaintext: string, owner: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(owner, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** The plaintext of `sealed`; UnreadableSecret when it cannot be opened. */
  open(sealed: string, owner: string): string {
    const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined || rest.length > 0) throw new UnreadableSecret();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(owner, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new UnreadableSecret();
    }
  }
}

/** The box of this DATA_DIR: `SECRETS_KEY` when set, otherwise a random key kept in `DATA_DIR/secrets.key`. */
export function loadSecretBox(keyPath: string, configured?: string): SecretBox {
  return new SecretBox(loadOrCreateKey(keyPath, configured));
}
