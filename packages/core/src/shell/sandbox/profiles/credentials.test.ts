/** The one list of credential locations, found as real paths in a home folder. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SECRET_FILES,
  VISIBLE_FILES,
  writeCredentialHome,
} from '../../../../test/helpers/credentials.js';
import { makeTempFolder } from '../../../../test/helpers/file-system.js';
import { existingCredentialPaths, expandLocation } from './credentials.js';

let base: string;
let home: string;
beforeEach(() => {
  base = makeTempFolder('toolhost-credentials-');
  home = path.join(base, 'home');
  fs.mkdirSync(home);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

/** Whether `file` is `hidden` itself or lies inside it. */
const covers = (hidden: string, file: string) =>
  file === hidden || file.startsWith(`${hidden}${path.sep}`);

describe('existingCredentialPaths', () => {
  it('covers a secret in every usual credential location, and nothing beside them', () => {
    writeCredentialHome(home);
    const hidden = existingCredentialPaths([home]);
    for (const file of Object.keys(SECRET_FILES))
      expect(
        hidden.some((place) => covers(place, path.join(home, file))),
        file,
      ).toBe(true);
    for (const file of Object.keys(VISIBLE_FILES))
      expect(
        hidden.some((place) => covers(place, path.join(home, file))),
        file,
      ).toBe(false);
  });

  it('lists the ones that exist, by real path, sorted, each once', () => {
    const other = path.join(base, 'other-home');
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.mkdirSync(path.join(home, '.config', 'gcloud'), { recursive: true });
    fs.writeFileSync(path.join(home, '.netrc'), 'machine x password y');
    const realAws = path.join(base, 'aws-elsewhere');
    fs.mkdirSync(realAws);
    fs.symlinkSync(realAws, path.join(home, '.aws'));
    fs.mkdirSync(other);
    fs.symlinkSync(path.join(home, '.ssh'), path.join(other, '.ssh'));
    expect(existingCredentialPaths([home, other])).toEqual(
      [
        path.join(home, '.ssh'),
        path.join(home, '.config', 'gcloud'),
        path.join(home, '.netrc'),
        realAws,
      ].sort(),
    );
    expect(existingCredentialPaths([path.join(base, 'missing')])).toEqual([]);
  });

  it('skips a link to nowhere', () => {
    fs.symlinkSync(path.join(base, 'gone'), path.join(home, '.ssh'));
    expect(existingCredentialPaths([home])).toEqual([]);
  });
});

describe('existingCredentialPaths, names ending in *', () => {
  it('takes every entry of the folder that starts with the rest, and nothing else', () => {
    fs.mkdirSync(path.join(home, '.cargo'));
    for (const name of ['credentials', 'credentials.toml', 'config.toml', 'my-credentials'])
      fs.writeFileSync(path.join(home, '.cargo', name), 'x');
    expect(existingCredentialPaths([home])).toEqual([
      path.join(home, '.cargo', 'credentials'),
      path.join(home, '.cargo', 'credentials.toml'),
    ]);
  });

  it('matches a * inside a name by what comes before and after it', () => {
    fs.mkdirSync(path.join(base, 'ssh'));
    for (const name of ['ssh_host_rsa_key', 'ssh_host_rsa_key.pub', 'ssh_config', 'host_key'])
      fs.writeFileSync(path.join(base, 'ssh', name), '');
    expect(expandLocation(path.join(base, 'ssh', 'ssh_*_key'))).toEqual([
      path.join(base, 'ssh', 'ssh_host_rsa_key'),
    ]);
    expect(expandLocation(path.join(base, 'ssh', 'plain'))).toEqual([
      path.join(base, 'ssh', 'plain'),
    ]);
    expect(expandLocation(path.join(base, 'missing', 'a*'))).toEqual([]);
  });

  it('finds nothing where the folder is missing or is a file', () => {
    fs.writeFileSync(path.join(home, '.cargo'), 'not a folder');
    expect(existingCredentialPaths([home])).toEqual([]);
  });
});
