import { describe, expect, it } from 'vitest';
import {
  type CallFacts,
  decideCall,
  normalHost,
  removingRule,
  shellPolicyRules,
} from './decision.js';
import { parseRule, rulesFromSettings } from './permission-rules.js';

const bases = { projectRoot: '/ws', homeDir: '/home/me' };
const call = (tool: string, extra: Partial<CallFacts> = {}): CallFacts => ({
  tool,
  displayName: tool,
  paths: [],
  ...extra,
});
const decide = (
  permissions: { allow?: string[]; ask?: string[]; deny?: string[] },
  facts: CallFacts,
) => decideCall(rulesFromSettings({ permissions }), facts, bases);

describe('parseRule', () => {
  it('reads a bare name, a specifier, and the whole-tool forms', () => {
    expect(parseRule('Read', 'deny', 'permissions.deny')).toMatchObject({
      name: 'Read',
      tools: ['read_file', 'read_many_files', 'grep_search', 'glob', 'list_directory'],
    });
    expect(parseRule('Bash(git diff:*)', 'allow', 'x')?.specifier).toBe('git diff:*');
    expect(parseRule('Bash(*)', 'allow', 'x')?.specifier).toBeUndefined();
    expect(parseRule('Bash()', 'allow', 'x')?.specifier).toBeUndefined();
    expect(parseRule('Bash(git', 'allow', 'x')).toBeUndefined();
  });

  it('reads MCP rules for a server, every tool of it, or one tool', () => {
    expect(parseRule('mcp__github', 'allow', 'x')?.mcp).toEqual({ server: 'github' });
    expect(parseRule('mcp__github__*', 'allow', 'x')?.mcp).toEqual({ server: 'github', tool: '*' });
    expect(parseRule('mcp__git_hub__get_issue', 'allow', 'x')?.mcp).toEqual({
      server: 'git_hub',
      tool: 'get_issue',
    });
  });
});

describe('decideCall', () => {
  it('puts deny over ask over allow, whatever order the lists are written in', () => {
    const facts = call('read_file', { paths: ['/ws/secrets/key.pem'] });
    expect(
      decide({ allow: ['Read'], ask: ['Read(./secrets/**)'], deny: ['Read(*.pem)'] }, facts)?.kind,
    ).toBe('deny');
    expect(decide({ allow: ['Read'], ask: ['Read(./secrets/**)'] }, facts)?.kind).toBe('ask');
    expect(decide({ allow: ['Read'] }, facts)?.kind).toBe('allow');
    expect(decide({}, facts)).toBeUndefined();
  });

  it('knows both vocabularies, and the Read and Edit groups', () => {
    for (const tool of ['read_file', 'read_many_files', 'grep_search', 'glob', 'list_directory'])
      expect(decide({ deny: ['Read'] }, call(tool, { paths: ['/ws'] }))?.kind).toBe('deny');
    expect(decide({ deny: ['Read'] }, call('write_file', { paths: ['/ws/a'] }))).toBeUndefined();
    expect(decide({ deny: ['Edit'] }, call('write_file', { paths: ['/ws/a'] }))?.kind).toBe('deny');
    expect(decide({ deny: ['Write'] }, call('edit', { paths: ['/ws/a'] }))).toBeUndefined();
    expect(decide({ deny: ['read_file'] }, call('read_file', { paths: ['/ws/a'] }))?.kind).toBe(
      'deny',
    );
    expect(decide({ deny: ['ReadFile'] }, call('glob', { paths: ['/ws'] }))).toBeUndefined();
    expect(decide({ deny: ['WebSearch'] }, call('web_search'))?.kind).toBe('deny');
    expect(decide({ allow: ['Grep'] }, call('grep_search', { paths: ['/ws'] }))?.kind).toBe(
      'allow',
    );
  });

  it('reads path specifiers from the root, the project, the home folder and the working folder', () => {
    const read = (file: string) => call('read_file', { paths: [file] });
    expect(decide({ deny: ['Read(//etc/**)'] }, read('/etc/passwd'))?.kind).toBe('deny');
    expect(decide({ deny: ['Read(~/.ssh/**)'] }, read('/home/me/.ssh/id_rsa'))?.kind).toBe('deny');
    expect(decide({ deny: ['Read(/src/*.ts)'] }, read('/ws/src/a.ts'))?.kind).toBe('deny');
    expect(decide({ deny: ['Read(/src/*.ts)'] }, read('/ws/src/deep/a.ts'))).toBeUndefined();
    expect(decide({ deny: ['Read(src/**)'] }, read('/ws/src/deep/a.ts'))?.kind).toBe('deny');
    // A name without a folder matches at any depth; a folder covers what is inside it.
    expect(decide({ deny: ['Read(.env)'] }, read('/ws/app/.env'))?.kind).toBe('deny');
    expect(decide({ deny: ['Read(./secrets)'] }, read('/ws/secrets/a/b'))?.kind).toBe('deny');
    expect(decide({ deny: ['Read(./secrets/**)'] }, read('/ws/secretsx/a'))).toBeUndefined();
  });

  it('allows a path call only when every path it names is allowed', () => {
    const facts = call('read_many_files', { paths: ['/ws/src/a.ts', '/ws/secret.txt'] });
    expect(decide({ allow: ['Read(src/**)'] }, facts)).toBeUndefined();
    expect(decide({ deny: ['Read(secret.txt)'] }, facts)?.kind).toBe('deny');
  });

  it('matches web_fetch hosts with their subdomains, never a look-alike', () => {
    const fetch = (host: string) => call('web_fetch', { host });
    expect(decide({ allow: ['WebFetch(domain:example.com)'] }, fetch('example.com'))?.kind).toBe(
      'allow',
    );
    expect(
      decide({ allow: ['WebFetch(domain:example.com)'] }, fetch('api.example.com'))?.kind,
    ).toBe('allow');
    expect(decide({ allow: ['WebFetch(domain:example.com)'] }, fetch('evilexample.com'))).toBe(
      undefined,
    );
  });

  it('matches MCP tools by server, by server wildcard and by tool', () => {
    const mcp = call('echo', { mcp: { server: 'fake', tool: 'echo' } });
    expect(decide({ allow: ['mcp__fake'] }, mcp)?.kind).toBe('allow');
    expect(decide({ allow: ['mcp__fake__*'] }, mcp)?.kind).toBe('allow');
    expect(decide({ allow: ['mcp__fake__echo'] }, mcp)?.kind).toBe('allow');
    expect(decide({ allow: ['mcp__fake__other'] }, mcp)).toBeUndefined();
    expect(decide({ allow: ['mcp__fakeish'] }, mcp)).toBeUndefined();
    // A server whose name holds `__`, beside one whose name starts it.
    const srv = (tool: string, server = 'my__srv') =>
      call(tool, { mcp: { server, tool, servers: ['my', 'my__srv'] } });
    expect(decide({ deny: ['mcp__my__srv__danger'] }, srv('danger'))?.kind).toBe('deny');
    expect(decide({ deny: ['mcp__my__srv'] }, srv('safe'))?.kind).toBe('deny');
    expect(decide({ deny: ['mcp__my__srv__danger'] }, srv('safe'))).toBeUndefined();
    expect(decide({ allow: ['mcp__my__srv__get_*'] }, srv('get_x'))?.kind).toBe('allow');
    // For the server `my`, that rule names its tool `srv__danger` too: denied, never allowed.
    expect(decide({ deny: ['mcp__my__srv__danger'] }, srv('srv__danger', 'my'))?.kind).toBe('deny');
    expect(decide({ ask: ['mcp__my__srv__danger'] }, srv('srv__danger', 'my'))?.kind).toBe('ask');
    expect(decide({ allow: ['mcp__my__srv__danger'] }, srv('srv__danger', 'my'))).toBeUndefined();
    expect(decide({ allow: ['mcp__my'] }, srv('danger'))).toBeUndefined();
    // Its name as toolhost lists it works too.
    expect(decide({ deny: ['echo'] }, mcp)?.kind).toBe('deny');
  });

  it('maps the older keys onto the same rules', () => {
    const rules = rulesFromSettings({
      tools: { allowed: ['read_file'], exclude: ['web_fetch'], core: ['run_shell_command(git)'] },
    });
    expect(decideCall(rules, call('read_file', { paths: ['/ws/a'] }), bases)?.rule.source).toBe(
      'tools.allowed',
    );
    expect(removingRule(rules, call('web_fetch'))?.source).toBe('tools.exclude');
    expect(shellPolicyRules(rules).allow.map((rule) => rule.words)).toEqual([['git']]);
  });

  it('leaves shell specifiers to the shell tool, and a bare Bash allow yields to ask rules', () => {
    const shell = call('run_shell_command');
    expect(decide({ deny: ['Bash(rm:*)'] }, shell)).toBeUndefined();
    expect(decide({ allow: ['Bash'] }, shell)?.kind).toBe('allow');
    expect(decide({ allow: ['Bash'], ask: ['Bash(git push:*)'] }, shell)).toBeUndefined();
    expect(decide({ deny: ['Bash'], ask: ['Bash(git push:*)'] }, shell)?.kind).toBe('deny');
  });
});

describe('shellPolicyRules', () => {
  it('reads Bash specifiers as Claude Code does: exact unless they end in *', () => {
    const rules = shellPolicyRules(
      rulesFromSettings({
        permissions: {
          allow: ['Bash(npm run test)', 'Bash(git diff:*)', 'Bash(git log *)', 'Bash'],
          ask: ['Bash(git push)'],
          deny: ['Bash(rm:*)', 'Bash'],
        },
      }),
    );
    expect(rules.allow.map((rule) => [rule.words, rule.exact ?? false])).toEqual([
      [['npm', 'run', 'test'], true],
      [['git', 'diff'], false],
      [['git', 'log', '*'], false],
    ]);
    expect(rules.ask[0]).toMatchObject({ words: ['git', 'push'], source: 'permissions.ask' });
    expect(rules.ask[0]?.exact).toBeUndefined();
    expect(rules.deny.map((rule) => rule.words)).toEqual([['rm'], ['*']]);
    expect(rules.allowAll).toBe(true);
  });
});

describe('hosts and addresses', () => {
  const fetch = (host: string) => call('web_fetch', { host });
  it('writes a host or an address one way for comparing', () => {
    expect(normalHost(' Example.COM. ')).toBe('example.com');
    expect(normalHost('[::1]')).toBe('::1');
    expect(normalHost('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalHost('[::ffff:7f00:1]')).toBe('127.0.0.1');
    expect(normalHost('0:0:0:0:0:ffff:a00:102')).toBe('10.0.1.2');
    expect(normalHost('::ffff:zz')).toBe('::ffff:zz');
  });

  it('matches an address only as itself, in any of its written forms', () => {
    const deny = (host: string) => decide({ deny: ['WebFetch(domain:127.0.0.1)'] }, fetch(host));
    expect(deny('127.0.0.1')?.kind).toBe('deny');
    expect(deny('[::ffff:7f00:1]')?.kind).toBe('deny');
    expect(deny('127.0.0.2')).toBeUndefined();
    expect(decide({ deny: ['WebFetch(domain:0.0.1)'] }, fetch('127.0.0.1'))).toBeUndefined();
    expect(decide({ deny: ['WebFetch(domain:[::1])'] }, fetch('::1'))?.kind).toBe('deny');
    expect(decide({ deny: ['WebFetch(domain:*.example.com)'] }, fetch('a.example.com'))?.kind).toBe(
      'deny',
    );
    expect(
      decide({ deny: ['WebFetch(domain:*.example.com)'] }, fetch('example.com')),
    ).toBeUndefined();
  });
});

describe('the rest of the decision', () => {
  const read = (file: string) => call('read_file', { paths: [file] });

  it('names a tool by its own name or its display name, and an MCP rule never a built-in', () => {
    const mine = call('my_tool', { displayName: 'MyTool' });
    expect(decide({ deny: ['my_tool'] }, mine)?.kind).toBe('deny');
    expect(decide({ deny: ['MyTool'] }, mine)?.kind).toBe('deny');
    expect(decide({ deny: ['other_tool'] }, mine)).toBeUndefined();
    expect(
      decide({ deny: ['mcp__fake'] }, call('read_file', { paths: ['/ws/a'] })),
    ).toBeUndefined();
    // Without the list of configured servers, the call's own server is still read whole.
    const srv = call('danger', { mcp: { server: 'my__srv', tool: 'danger' } });
    expect(decide({ deny: ['mcp__my__srv__danger'] }, srv)?.kind).toBe('deny');
  });

  it('compares hosts as names and addresses as addresses', () => {
    const fetch = (host: string) => call('web_fetch', { host });
    expect(decide({ deny: ['WebFetch(a.domain:b)'] }, fetch('a.b'))).toBeUndefined();
    expect(decide({ deny: ['WebFetch(domain:example.com)'] }, fetch('1.2.example.com'))?.kind).toBe(
      'deny',
    );
    expect(decide({ deny: ['WebFetch(domain:b.123)'] }, fetch('a.b.123'))?.kind).toBe('deny');
    expect(decide({ deny: ['WebFetch(domain:x.com)'] }, call('web_fetch'))).toBeUndefined();
    expect(normalHost('[a]b')).toBe('[a]b');
    expect(normalHost('a[b]')).toBe('a[b]');
    expect(normalHost('0:0:0:0:0:ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(normalHost('::ffff:10.20.30.40')).toBe('10.20.30.40');
    expect(normalHost('x::ffff:1.2.3.4')).toBe('x::ffff:1.2.3.4');
    expect(normalHost('::ffff:1.2.3.4x')).toBe('::ffff:1.2.3.4x');
    expect(normalHost('::ffff:7f00:12345')).toBe('::ffff:7f00:12345');
    expect(normalHost('x::ffff:7f00:1')).toBe('x::ffff:7f00:1');
  });

  it('compares literal specifiers with the call value, and leaves shell specifiers alone', () => {
    expect(decide({ deny: ['Task(reviewer)'] }, call('task', { value: 'reviewer' }))?.kind).toBe(
      'deny',
    );
    expect(decide({ deny: ['Task(review*)'] }, call('task', { value: 'reviewer' }))?.kind).toBe(
      'deny',
    );
    expect(decide({ deny: ['Task(reviewer)'] }, call('task', { value: 'writer' }))).toBeUndefined();
    expect(decide({ deny: ['Task(reviewer)'] }, call('task'))).toBeUndefined();
    const shell = call('run_shell_command', { value: 'rm:*' });
    expect(decide({ deny: ['Bash(rm:*)'] }, shell)).toBeUndefined();
    const shellWithPath = call('run_shell_command', { paths: ['/ws/rm:x'] });
    expect(decide({ deny: ['Bash(rm:*)'] }, shellWithPath)).toBeUndefined();
    expect(decide({ deny: ['Task(undef*)'] }, call('task'))).toBeUndefined();
  });

  it('needs a path for a path rule, and an allow rule it cannot read allows nothing', () => {
    expect(decide({ allow: ['Read(./x)'] }, call('read_file'))).toBeUndefined();
    expect(decide({ deny: ['Read(./x)'] }, call('read_file'))).toBeUndefined();
    expect(decide({ allow: ['Read(./[x)'] }, read('/ws/[x'))).toBeUndefined();
    expect(decide({ deny: ['Read(./[x)'] }, read('/ws/[x'))?.kind).toBe('deny');
  });

  it('compiles one rule set anew for other bases', () => {
    const rules = rulesFromSettings({ permissions: { deny: ['Read(./secrets/**)'] } });
    expect(decideCall(rules, read('/ws/secrets/a'), bases)?.kind).toBe('deny');
    const other = { projectRoot: '/other', homeDir: '/home/me' };
    expect(decideCall(rules, read('/other/secrets/a'), other)?.kind).toBe('deny');
    expect(decideCall(rules, read('/ws/secrets/a'), other)).toBeUndefined();
  });

  it('lets a bare shell allow yield to ask rules only for the shell', () => {
    const shell = call('run_shell_command');
    expect(decide({ allow: ['Bash'] }, shell)?.kind).toBe('allow');
    expect(decide({ allow: ['Bash'], ask: ['Bash(git push:*)'] }, shell)).toBeUndefined();
    expect(decide({ deny: ['Bash'], ask: ['Bash(git push:*)'] }, shell)?.kind).toBe('deny');
    expect(decide({ allow: ['Read'], ask: ['Bash(x)'] }, read('/ws/a'))?.kind).toBe('allow');
    const rules = rulesFromSettings({ permissions: { deny: ['Bash(rm:*)', 'Read'] } });
    expect(removingRule(rules, shell)).toBeUndefined();
    expect(removingRule(rules, read('/ws/a'))?.entry).toBe('Read');
  });

  it('gives the shell only rules that name it', () => {
    const rules = shellPolicyRules(
      rulesFromSettings({
        permissions: { allow: ['my_tool', 'Read(./x)', 'Bash(ls:*)'], deny: ['mcp__Bash', 'Read'] },
      }),
    );
    expect(rules.allow.map((rule) => rule.source)).toEqual(['permissions.allow']);
    expect(rules.allow).toHaveLength(1);
    expect(rules.deny).toEqual([]);
    expect(rules.allowAll).toBe(false);
  });
});

describe('links', () => {
  it('denies by either form and allows only when both forms are allowed', async () => {
    const { mkdirSync, mkdtempSync, rmSync, symlinkSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const base = mkdtempSync(path.join(tmpdir(), 'decision-links-'));
    try {
      mkdirSync(path.join(base, 'ws', 'real'), { recursive: true });
      symlinkSync(path.join(base, 'ws', 'real'), path.join(base, 'ws', 'link'));
      const at = { projectRoot: path.join(base, 'ws'), homeDir: '/home/me' };
      const decideAt = (permissions: { allow?: string[]; deny?: string[] }, file: string) =>
        decideCall(rulesFromSettings({ permissions }), read(file), at);
      const viaLink = path.join(base, 'ws', 'link', 'f');
      expect(decideAt({ deny: ['Read(./real/**)'] }, viaLink)?.kind).toBe('deny');
      expect(decideAt({ allow: ['Read(./real/**)'] }, viaLink)).toBeUndefined();
      expect(decideAt({ allow: ['Read(./real/**)', 'Read(./link/**)'] }, viaLink)?.kind).toBe(
        'allow',
      );
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
  const read = (file: string) => call('read_file', { paths: [file] });
});
