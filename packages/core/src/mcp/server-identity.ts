/**
 * What toolhost's MCP server says about itself in its answer to `initialize`: its name and
 * version, its capabilities, and the protocol version it agrees to. Kept apart from the SDK
 * so that the stdio opening (stdio-opening.ts) can answer `initialize` before the SDK
 * loads; stdio-opening.test.ts checks these against the SDK's own answer.
 */

/** Resources (the memory files) and prompts (the person's command files). */
export const OFFERING_CAPABILITIES = {
  resources: { listChanged: true },
  prompts: { listChanged: false },
} as const;

export const SERVER_CAPABILITIES = {
  tools: { listChanged: true },
  logging: {},
  ...OFFERING_CAPABILITIES,
} as const;

/**
 * The protocol versions the MCP SDK's server accepts, newest first: a copy of the SDK's
 * SUPPORTED_PROTOCOL_VERSIONS (the opening's test fails when an SDK update changes them).
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
  '2024-10-07',
];

export function serverInfo(version: string | undefined): { name: string; version: string } {
  return { name: 'toolhost', version: version ?? '0.1.0' };
}

/** The version the client asked for when the server speaks it, else the newest, as the SDK agrees. */
export function agreedProtocolVersion(requested: string): string {
  return SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : (SUPPORTED_PROTOCOL_VERSIONS[0] as string);
}
