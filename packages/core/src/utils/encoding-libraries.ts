/**
 * iconv-lite and chardet, loaded the first time a file is not plain UTF-8: iconv-lite's
 * tables are most of the code a session would otherwise load at start, and almost every
 * file is UTF-8.
 */
import type chardetModule from 'chardet';
import type iconvModule from 'iconv-lite';
import { requiredOnFirstUse } from './lazy-libraries.js';

export const iconv = requiredOnFirstUse<typeof iconvModule>('iconv-lite');

export const chardet = requiredOnFirstUse<typeof chardetModule>('chardet');
