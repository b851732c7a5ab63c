// Crockford's base32: no I, L, O, U, so ids read aloud and copied by hand survive.
export const BASE32_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** The first `length` base32 characters of `bytes`. */
export function encodeBase32(bytes: Uint8Array, length: number): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && output.length < length) {
      output += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return output;
}
