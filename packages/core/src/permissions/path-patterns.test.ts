import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compilePathSpecifier,
  escapeForPattern,
  expandBraces,
  type PathBases,
  pathForms,
  pathMatcher,
  specifierCovers,
} from './path-patterns.js';

const bases: PathBases = { projectRoot: '/ws', homeDir: '/home/me' };
const covers = (specifier: string, file: string, at: PathBases = bases) =>
  pathMatcher(specifier, at)(file);

describe('compilePathSpecifier', () => {
  it('reads the four kinds of start: file system root, home, project root, any depth', () => {
    expect(covers('//etc/**', '/etc/passwd')).toBe(true);
    expect(covers('//etc/**', '/ws/etc/passwd')).toBe(false);
    expect(covers('~/.ssh/**', '/home/me/.ssh/id_rsa')).toBe(true);
    expect(covers('~', '/home/me/x')).toBe(true);
    expect(covers('~/.ssh', '/home/other/.ssh/id')).toBe(false);
    expect(covers('/src/*.ts', '/ws/src/a.ts')).toBe(true);
    expect(covers('/src/*.ts', '/src/a.ts')).toBe(false);
    expect(covers('./src/*.ts', '/ws/src/a.ts')).toBe(true);
    expect(covers('src/a.ts', '/ws/src/a.ts')).toBe(true);
    expect(covers('src/a.ts', '/ws/lib/src/a.ts')).toBe(false);
    expect(covers('.env', '/ws/.env')).toBe(true);
    expect(covers('.env', '/ws/app/deep/.env')).toBe(true);
    expect(covers('.env', '/elsewhere/.env')).toBe(false);
    expect(covers('.env', '/ws/.envx')).toBe(false);
    expect(covers('*.pem', '/ws/keys/a.pem')).toBe(true);
    expect(covers('*.pem', '/ws/keys/a.pemx')).toBe(false);
  });

  it('matches * and ? inside one folder, ** across folders, and a folder with its contents', () => {
    expect(covers('/src/*.ts', '/ws/src/deep/a.ts')).toBe(false);
    expect(covers('/src/**/*.ts', '/ws/src/deep/er/a.ts')).toBe(true);
    expect(covers('/src/**/*.ts', '/ws/src/a.ts')).toBe(true);
    expect(covers('/src/**/x', '/ws/src/a/b/x/inside')).toBe(true);
    expect(covers('/src/**/x', '/ws/src/a/b/y')).toBe(false);
    expect(covers('/a?c', '/ws/abc')).toBe(true);
    expect(covers('/a?c', '/ws/a/c')).toBe(false);
    expect(covers('/a?c', '/ws/abbc')).toBe(false);
    expect(covers('/a*c', '/ws/a/c')).toBe(false);
    expect(covers('/a**c', '/ws/abbc')).toBe(true);
    expect(covers('/a**c', '/ws/ab/c')).toBe(false);
    expect(covers('./secrets', '/ws/secrets/a/b')).toBe(true);
    expect(covers('./secrets/**', '/ws/secrets')).toBe(true);
    expect(covers('./secrets/**', '/ws/secretsx/a')).toBe(false);
    expect(covers('./secrets/', '/ws/secrets/a')).toBe(true);
    expect(covers('**', '/ws/anything')).toBe(true);
    expect(covers('/*/x', '/ws/a/x/y')).toBe(true);
    expect(covers('/**', '/elsewhere')).toBe(false);
    expect(covers('/*.ts', '/ws/.hidden.ts')).toBe(true);
  });

  it('reads classes, escapes and alternatives', () => {
    expect(covers('/[ab].txt', '/ws/a.txt')).toBe(true);
    expect(covers('/[ab].txt', '/ws/c.txt')).toBe(false);
    expect(covers('/[!ab].txt', '/ws/c.txt')).toBe(true);
    expect(covers('/[!ab].txt', '/ws/a.txt')).toBe(false);
    expect(covers('/[^ab].txt', '/ws/a.txt')).toBe(false);
    expect(covers('/[a-c].txt', '/ws/b.txt')).toBe(true);
    expect(covers('/[a-c].txt', '/ws/-.txt')).toBe(false);
    expect(covers('/[-a].txt', '/ws/-.txt')).toBe(true);
    expect(covers('/[a-].txt', '/ws/-.txt')).toBe(true);
    expect(covers('/[]a].txt', '/ws/].txt')).toBe(true);
    expect(covers('/[\\]].txt', '/ws/].txt')).toBe(true);
    expect(covers('/[.^].txt', '/ws/^.txt')).toBe(true);
    expect(covers('/[.^].txt', '/ws/x.txt')).toBe(false);
    expect(covers('/[!.]', '/ws/a/b')).toBe(true);
    expect(covers('/\\*.txt', '/ws/*.txt')).toBe(true);
    expect(covers('/\\*.txt', '/ws/a.txt')).toBe(false);
    expect(covers('/x\\?/*', '/ws/x?/a')).toBe(true);
    expect(covers('/x\\?/*', '/ws/xy/a')).toBe(false);
    expect(covers('/*.{pem,key}', '/ws/a.key')).toBe(true);
    expect(covers('/*.{pem,key}', '/ws/a.pem')).toBe(true);
    expect(covers('/*.{pem,key}', '/ws/a.txt')).toBe(false);
    expect(covers('/{a,b}/x', '/ws/b/x')).toBe(true);
    expect(covers('/\\{a,b}/x', '/ws/{a,b}/x')).toBe(true);
    expect(covers('/\\{a,b}/x', '/ws/a/x')).toBe(false);
    // Characters other globbers give meaning are plain here.
    for (const name of ['(1)', '@(x)', '!x', '+(y)', 'a|b', 'a.b', '$x', '^x', '{b}'])
      expect(covers(`/${name}/*`, `/ws/${name}/f`), name).toBe(true);
    expect(covers('/a.b/*', '/ws/axb/f')).toBe(false);
    expect(covers('/@(x)/*', '/ws/x/f')).toBe(false);
    expect(covers('/*(x)', '/ws/abc(x)')).toBe(true);
    expect(covers('/*(x)', '/ws/x')).toBe(false);
  });

  it('takes the project root and the home folder as data, whatever their names hold', () => {
    for (const name of ['repo (1)', '[a]', '{b,c}', '@(x)', '!x', 'a*b?', '+(y)', 'a\\b']) {
      const at = { projectRoot: `/t/${name}`, homeDir: `/h/${name}` };
      expect(covers('./secrets/**', `/t/${name}/secrets/x.txt`, at), name).toBe(true);
      expect(covers('*.pem', `/t/${name}/k/a.pem`, at), name).toBe(true);
      expect(covers('~/.ssh/**', `/h/${name}/.ssh/id`, at), name).toBe(true);
      expect(covers('./secrets/**', '/t/b/secrets/x.txt', at), name).toBe(false);
      expect(covers('./secrets/**', '/t/ab/secrets/x.txt', at), name).toBe(false);
    }
  });

  it('normalises . and .. and doubled slashes in the literal part', () => {
    expect(covers('./a/../secrets/**', '/ws/secrets/x')).toBe(true);
    expect(covers('./a/../secrets/**', '/ws/a/secrets/x')).toBe(false);
    expect(covers('../other/*', '/other/x')).toBe(true);
    expect(covers('//etc//./ssh', '/etc/ssh/x')).toBe(true);
  });

  it('names what it cannot compile, and falls back to the literal folder', () => {
    const unclosed = compilePathSpecifier('./keys/[ab', bases);
    expect(unclosed.problem).toContain('"[" is not closed');
    expect(unclosed.patterns).toEqual([{ roots: ['/ws/keys'] }]);
    expect(specifierCovers(unclosed, '/ws/keys/anything')).toBe(true);
    expect(specifierCovers(unclosed, '/ws/other')).toBe(false);
    expect(compilePathSpecifier('./a/*/../b', bases).problem).toContain('".." after a wildcard');
    expect(compilePathSpecifier('./a/*/../b', bases).patterns[0]?.roots).toEqual(['/ws/a']);
    expect(compilePathSpecifier('./a/*b\\', bases).problem).toContain('lone');
    expect(compilePathSpecifier('[x', bases).patterns[0]?.roots).toEqual(['/ws']);
    expect(compilePathSpecifier('~/{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}', bases).problem).toContain(
      'more than 64',
    );
    expect(compilePathSpecifier('./keys/*.pem', bases).problem).toBeUndefined();
  });

  it('keeps the literal folder as the root and the rest as a pattern', () => {
    const compiled = compilePathSpecifier('./secrets/**', bases);
    expect(compiled.patterns).toEqual([{ roots: ['/ws/secrets'] }]);
    const partial = compilePathSpecifier('./src/*.pem', bases).patterns[0]!;
    expect(partial.roots).toEqual(['/ws/src']);
    expect(partial.rest?.test('a.pem')).toBe(true);
    expect(compilePathSpecifier('*.pem', bases).patterns[0]?.roots).toEqual(['/ws']);
  });
});

describe('details of the syntax', () => {
  it('reads a name with a slash only at its end as a name at any depth', () => {
    expect(covers('secrets//', '/ws/a/secrets/x')).toBe(true);
    expect(covers('/.env', '/ws/a/.env')).toBe(false);
    expect(covers('./.env', '/ws/a/.env')).toBe(false);
    expect(covers('a/.env', '/ws/b/a/.env')).toBe(false);
  });

  it('drops . and empty parts after a wildcard too', () => {
    expect(covers('/*/./x', '/ws/a/x')).toBe(true);
    expect(covers('/*//x', '/ws/a/x')).toBe(true);
  });

  it('puts ** first, in the middle and last without gluing names together', () => {
    expect(covers('/**/b', '/ws/ab')).toBe(false);
    expect(covers('/**/b', '/ws/a/b')).toBe(true);
    expect(covers('/a*/**/b', '/ws/ax/b')).toBe(true);
    expect(covers('/a*/**/b', '/ws/axb')).toBe(false);
    expect(covers('/a*/**/b', '/ws/ax/yb')).toBe(false);
    expect(covers('/a*/**', '/ws/ax')).toBe(true);
    expect(covers('/a*/**', '/ws/a')).toBe(true);
    expect(covers('/a*/**', '/ws/b')).toBe(false);
    expect(covers('**', '/ws')).toBe(true);
    expect(covers('/x/**/**', '/ws/x/y')).toBe(true);
    expect(covers('/x*/**/**', '/ws/xa/y')).toBe(true);
  });

  it('matches names with a line break in them', () => {
    expect(covers('/a/**/x', '/ws/a/b\nc/x')).toBe(true);
    expect(covers('/a/*', '/ws/a/b\nc')).toBe(true);
  });

  it('reads escapes inside a wildcard name', () => {
    expect(covers('/\\*x*', '/ws/*xabc')).toBe(true);
    expect(covers('/\\*x*', '/ws/axabc')).toBe(false);
    expect(covers('/a\\?*', '/ws/a?b')).toBe(true);
    expect(covers('/a\\?*', '/ws/abb')).toBe(false);
  });

  it('reads classes with ] first, escapes, negation and three members', () => {
    expect(covers('/[!]]x', '/ws/ax')).toBe(true);
    expect(covers('/[!]]x', '/ws/]x')).toBe(false);
    expect(covers('/[^]]x', '/ws/]x')).toBe(false);
    expect(covers('/[\\]].txt', '/ws/\\.txt')).toBe(false);
    expect(covers('/[a\\-c]', '/ws/b')).toBe(false);
    expect(covers('/[a\\-c]', '/ws/-')).toBe(true);
    expect(covers('/[acd].txt', '/ws/b.txt')).toBe(false);
    expect(covers('/[acd].txt', '/ws/d.txt')).toBe(true);
    expect(covers('/[a-]x', '/ws/bx')).toBe(false);
    expect(covers('/[a]]', '/ws/a]')).toBe(true);
    expect(covers('/[^]]x', '/ws/ax')).toBe(true);
    expect(covers('/[abc]x', '/ws/ax')).toBe(true);
    expect(covers('/[!-a]', '/ws/0')).toBe(true);
    expect(covers('/[!-a]', '/ws/-')).toBe(false);
    expect(covers('/[!a-]', '/ws/-')).toBe(false);
    expect(covers('/[!a-]', '/ws/0')).toBe(true);
    expect(compilePathSpecifier('/[ab\\', bases).problem).toContain('not closed');
    expect(compilePathSpecifier('/[]', bases).problem).toContain('not closed');
  });

  it('allows exactly 64 alternatives', () => {
    expect(compilePathSpecifier('/{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}', bases).patterns).toHaveLength(
      64,
    );
  });

  it('leaves the written form alone for a loop of links', () => {
    const base = mkdtempSync(path.join(tmpdir(), 'path-loop-'));
    try {
      symlinkSync(path.join(base, 'b'), path.join(base, 'a'));
      symlinkSync(path.join(base, 'a'), path.join(base, 'b'));
      expect(pathForms(path.join(base, 'a', 'x'))).toEqual([path.join(base, 'a', 'x')]);
      expect(compilePathSpecifier(`/${base}/a/**`, bases).patterns[0]?.roots).toEqual([
        path.join(base, 'a'),
      ]);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('escapeForPattern', () => {
  it('writes a folder so that a rule reads each of its characters as itself', () => {
    for (const name of ['repo (1)', '[a]', '{b,c}', '@(x)', '!x', 'a*b?', '+(y)', 'a\\b']) {
      const rule = `/${escapeForPattern(`/t/${name}`)}/**`;
      expect(covers(rule, `/t/${name}/f`), name).toBe(true);
      expect(covers(rule, '/t/a/f'), name).toBe(false);
      expect(covers(rule, '/t/b/f'), name).toBe(false);
      expect(compilePathSpecifier(rule, bases).patterns).toEqual([{ roots: [`/t/${name}`] }]);
    }
  });
});

describe('expandBraces', () => {
  it('expands alternatives, nested ones too, and leaves the rest alone', () => {
    expect(expandBraces('a{b,c}d')).toEqual(['abd', 'acd']);
    expect(expandBraces('{a,{b,c}}')).toEqual(['a', 'b', 'c']);
    expect(expandBraces('{a,b}{c,d}')).toEqual(['ac', 'ad', 'bc', 'bd']);
    expect(expandBraces('{a}')).toEqual(['{a}']);
    expect(expandBraces('\\{a,b}')).toEqual(['\\{a,b}']);
    expect(expandBraces('{a,b')).toEqual(['{a,b']);
    expect(expandBraces('x{,y}')).toEqual(['x', 'xy']);
    expect(expandBraces('{a}{b,c}')).toEqual(['{a}b', '{a}c']);
    expect(expandBraces('{a\\,b,c}')).toEqual(['a\\,b', 'c']);
    expect(expandBraces('{a,\\}}')).toEqual(['a', '\\}']);
  });
});

describe('links', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'path-patterns-'));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  const real = path.join(base, 'var', 'home', 'me');
  mkdirSync(path.join(real, 'proj', 'secrets'), { recursive: true });
  symlinkSync(path.join(base, 'var', 'home'), path.join(base, 'home'));
  const linked = path.join(base, 'home', 'me');

  it('matches a rule written through a link at the real path and the link path', () => {
    const at = { projectRoot: '/ws', homeDir: linked };
    const compiled = compilePathSpecifier('~/proj/secrets/**', at);
    expect(compiled.patterns[0]?.roots).toEqual([
      path.join(linked, 'proj', 'secrets'),
      path.join(real, 'proj', 'secrets'),
    ]);
    expect(specifierCovers(compiled, path.join(real, 'proj', 'secrets', 'x'))).toBe(true);
    expect(specifierCovers(compiled, path.join(linked, 'proj', 'secrets', 'x'))).toBe(true);
  });

  it('gives a path as written and as its links resolve, new files by their folder', () => {
    expect(pathForms(path.join(linked, 'proj', 'new.txt'))).toEqual([
      path.join(linked, 'proj', 'new.txt'),
      path.join(real, 'proj', 'new.txt'),
    ]);
    expect(pathForms(path.join(real, 'proj'))).toEqual([path.join(real, 'proj')]);
    expect(pathForms(`${real}/proj/../proj`)).toEqual([path.join(real, 'proj')]);
  });
});
