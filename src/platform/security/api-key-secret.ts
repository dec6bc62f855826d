// API key secrets: `hark_` + 32 random bytes. Stored as SHA-256: the secret has 256 bits of
// entropy, so a slow hash adds nothing and a fast one keeps every request's lookup cheap.
import { createHash, randomBytes } from 'node:crypto';

export const newKeySecret = (): string => `hark_${randomBytes(32).toString('base64url')}`;
export const hashKeySecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
export const keyPrefix = (secret: string): string => secret.slice(0, 9);
