#!/usr/bin/env node
/**
 * The MCP client the conformance suite tests: `node client.mjs <server-url>`, with the
 * scenario in MCP_CONFORMANCE_SCENARIO and its credentials in MCP_CONFORMANCE_CONTEXT.
 * Everything goes through toolhost's own client: a McpServerConnection configured the way
 * a person would configure the server in settings (mcpServers.<alias>), toolhost's OAuth
 * provider and store, and `signInToMcpServer` (what `toolhost mcp auth` runs) whenever the
 * connection reports that the server needs a sign-in. The browser is a fetch that follows
 * the authorization server's redirect back to toolhost's loopback listener.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  Config,
  McpServerConnection,
  signInToMcpServer,
  ToolConfirmationOutcome,
} from '@toolhost/core';

/** The CIMD address toolhost is configured with (the suite's fixed example URL). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
/** Sign-ins one scenario may need: the first one, then a step-up; more means a loop. */
const MAX_SIGN_INS = 3;
const ALIAS = 'server';

const serverUrl = process.argv[2];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
if (!serverUrl) {
  console.error('usage: client.mjs <server-url>');
  process.exit(2);
}

const home = mkdtempSync(path.join(os.tmpdir(), 'toolhost-conformance-'));
try {
  await run();
} catch (error) {
  console.error(`toolhost client: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  rmSync(home, { recursive: true, force: true });
}

async function run() {
  const settings = { httpUrl: serverUrl, trust: true, timeout: 20_000, oauth: oauthSettings() };
  const config = new Config({
    roots: [home],
    homeDir: home,
    settings: { mcpServers: { [ALIAS]: settings } },
  });
  let connection = new McpServerConnection(ALIAS, settings, config);
  let signIns = 0;
  const signIn = async () => {
    if (++signIns > MAX_SIGN_INS)
      throw new Error(`gave up after ${MAX_SIGN_INS} sign-ins: the server keeps refusing`);
    await connection.close();
    await signInToMcpServer(config, ALIAS, settings, { openAuthorizationUrl: browse });
    connection = new McpServerConnection(ALIAS, settings, config);
  };

  for (;;) {
    await connection.connect();
    if (connection.status === 'connected') break;
    if (!connection.signInNeeded) throw new Error(connection.error ?? 'did not connect');
    await signIn();
  }
  try {
    for (const tool of toolsToCall(connection.tools.map((t) => t.name))) {
      for (;;) {
        try {
          await connection.callTool(
            tool.name,
            tool.args,
            new AbortController().signal,
            undefined,
            answerWithDefaults,
          );
          break;
        } catch (error) {
          if (!connection.signInNeeded) throw error;
          await signIn();
          await connection.connect();
        }
      }
    }
  } finally {
    await connection.close();
  }
}

/** What settings a person would write for the scenario's server. */
function oauthSettings() {
  if (scenario === 'auth/client-credentials-basic')
    return {
      grantType: 'client_credentials',
      clientId: context.client_id,
      clientSecret: context.client_secret,
    };
  if (scenario === 'auth/client-credentials-jwt') {
    const keyFile = path.join(home, 'client-key.pem');
    writeFileSync(keyFile, context.private_key_pem, { mode: 0o600 });
    return {
      grantType: 'client_credentials',
      clientId: context.client_id,
      privateKeyFile: keyFile,
      ...(context.signing_algorithm ? { signingAlgorithm: context.signing_algorithm } : {}),
    };
  }
  if (scenario === 'auth/pre-registration')
    return { clientId: context.client_id, clientSecret: context.client_secret };
  return { clientMetadataUrl: CLIENT_METADATA_URL };
}

/** The tools each scenario's server expects to be called, with their arguments. */
function toolsToCall(listed) {
  const args = { add_numbers: { a: 2, b: 3 } };
  const wanted = [
    'add_numbers',
    'test-tool',
    'test_client_elicitation_defaults',
    'test_reconnection',
  ];
  return listed
    .filter((name) => wanted.includes(name))
    .map((name) => ({ name, args: args[name] ?? {} }));
}

/** The person accepts the server's question without typing anything: defaults fill it. */
async function answerWithDefaults() {
  return { outcome: ToolConfirmationOutcome.ProceedOnce, payload: { answers: {} } };
}

/** The browser: open the sign-in page, which redirects straight back to toolhost. */
async function browse(url) {
  const page = await fetch(url);
  await page.text();
}
