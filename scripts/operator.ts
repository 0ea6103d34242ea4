// npm run operator -- add NAME --role ROLE | list | disable NAME | enable NAME (--help for the options)
// The operators from the shell, through a running server's operator API with
// ADMIN_TOKEN (the bootstrap administrator): the first accounts are made this way.
// `add` prints a new random password once, or takes one from standard input.
import { randomBytes } from 'node:crypto';
import { cli, str, UsageError, type Parsed } from './args.js';
import { adminCaller, type AdminBody } from './lib/admin-call.js';

const SPEC = {
  command: 'npm run operator --',
  summary:
    "Operators on a running server (its operator API): `add NAME --role ROLE` makes an operator (viewer, support, designer or admin) and prints its password once (or reads it from standard input with --password-stdin); `list` prints the operators; `disable NAME` and `enable NAME` stop and restore one's access.",
  positionals: '<add NAME | list | disable NAME | enable NAME>',
  options: {
    url: { type: 'string', value: 'URL', default: 'http://localhost:8080', description: "the server's address" },
    token: {
      type: 'string',
      value: 'TOKEN',
      defaultText: '$ADMIN_TOKEN',
      description: "an administrator's token (ADMIN_TOKEN, or an admin's personal token)",
    },
    role: { type: 'string', value: 'ROLE', description: 'with add: viewer, support, designer or admin' },
    'password-stdin': { type: 'boolean', description: 'with add: read the password from standard input' },
  },
} as const;

type Body = AdminBody;

const readStdin = async (): Promise<string> => {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.replace(/\r?\n$/, '');
};

const main = async (args: Parsed): Promise<number> => {
  const url = str(args, 'url').replace(/\/$/, '');
  const token = typeof args.values['token'] === 'string' ? args.values['token'] : process.env['ADMIN_TOKEN'];
  if (!token) throw new UsageError('give --token or set ADMIN_TOKEN');
  const call = adminCaller(url, token);
  const [command, name] = args.positionals;
  if (command === 'list') {
    const ops = (await call('GET', '/admin/operators'))['operators'] as Array<Record<string, string | null>>;
    if (ops.length === 0) process.stdout.write('no operator yet\n');
    for (const o of ops)
      process.stdout.write(
        `${String(o['name'])}  ${String(o['role'])}  made ${String(o['createdAt'])} by ${String(o['createdBy'])}${o['disabledAt'] ? `  disabled ${o['disabledAt']}` : ''}\n`,
      );
    return 0;
  }
  if ((command === 'disable' || command === 'enable') && name) {
    await call('POST', `/admin/operators/${encodeURIComponent(name)}/${command}`, {});
    process.stdout.write(`${name} ${command}d\n`);
    return 0;
  }
  if (command !== 'add' || !name)
    throw new UsageError('give a command: add NAME --role ROLE, list, disable NAME or enable NAME');
  const role = args.values['role'];
  if (typeof role !== 'string') throw new UsageError('add needs --role (viewer, support, designer or admin)');
  const given = args.values['password-stdin'] === true;
  const password = given ? await readStdin() : randomBytes(18).toString('base64url');
  await call('POST', '/admin/operators', { name, role, password });
  process.stdout.write(`${name} (${role}) made${given ? '' : `; password (shown once): ${password}`}\n`);
  return 0;
};

// A failed call (refused, unreachable) is its message and exit status 1; a bad command line 2.
cli(SPEC, main, { errorExit: 1 });
