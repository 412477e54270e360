import type * as Argon2 from '@node-rs/argon2';
import { nativeAddon } from './executable';

/**
 * `@node-rs/argon2` inside the single executable: its loader looks for a platform
 * package in node_modules, which the executable has none of, so scripts/package.mjs
 * points the import here and the addon is loaded from the executable's cache folder.
 * (The addon exports these functions itself; the package's JS only finds it.)
 */
const addon = () => nativeAddon<typeof Argon2>('argon2');
export const hash: typeof Argon2.hash = (...args) => addon().hash(...args);
export const verify: typeof Argon2.verify = (...args) => addon().verify(...args);
