/** `toolhost trust`: lets a project's own settings apply in full (or makes them only stricter again). */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { setFolderTrust, trustedFoldersPath, userSettingsDir } from '@toolhost/core/config';
import { UsageError } from '../errors.js';

export async function runTrustCommand(
  dir: string | undefined,
  options: { revoke?: boolean },
  stdout: NodeJS.WritableStream,
): Promise<void> {
  const folder = path.resolve(dir ?? '.');
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new UsageError(`${folder} is not a folder; pass the project folder to trust.`);
  }
  const userDir = userSettingsDir();
  await setFolderTrust(folder, userDir, options.revoke ? 'DO_NOT_TRUST' : 'TRUST_FOLDER');
  stdout.write(
    options.revoke
      ? `No longer trusted: ${folder}. Its settings may again only make toolhost stricter.\n`
      : `Trusted: ${folder}. Its settings now apply in full, including those that loosen approvals, the sandbox or the network, name endpoints and start programs (recorded in ${trustedFoldersPath(userDir)}).\n`,
  );
}
