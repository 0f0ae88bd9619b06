/**
 * iconv-lite and chardet, loaded the first time a file is not plain UTF-8: iconv-lite's
 * tables are most of the code a session would otherwise load at start, and almost every
 * file is UTF-8.
 */
import { createRequire } from 'node:module';
import type chardetModule from 'chardet';
import type iconvModule from 'iconv-lite';

const requireOnce = createRequire(import.meta.url);
let iconvLoaded: typeof iconvModule | undefined;
let chardetLoaded: typeof chardetModule | undefined;

export function iconv(): typeof iconvModule {
  iconvLoaded ??= requireOnce('iconv-lite') as typeof iconvModule;
  return iconvLoaded;
}

export function chardet(): typeof chardetModule {
  chardetLoaded ??= requireOnce('chardet') as typeof chardetModule;
  return chardetLoaded;
}
