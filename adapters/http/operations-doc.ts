// The operations reference in Markdown, derived from the table and its codecs.
import { OPERATIONS } from '../../core/operations/table.js';
import { RESULT_CODES, ERROR_NAMES } from '../../core/errors.js';
import { HTTP_STATUS } from './status.js';
import { schemaOf } from './json-schema.js';

const fieldsOf = (schema: Record<string, unknown>): string => {
  const props = (schema['properties'] as Record<string, Record<string, unknown>> | undefined) ?? {};
  const required = new Set((schema['required'] as string[] | undefined) ?? []);
  const names = Object.keys(props);
  if (names.length === 0) return '—';
  return names.map((n) => `\`${n}\`${required.has(n) ? '' : '?'}`).join(', ');
};

export const operationsMarkdown = (): string => {
  const lines: string[] = [
    '# Operations',
    '',
    'Generated from the operations table by `npm run docs`; do not edit by hand. Every path is under `/api`.',
    'Session operations need `X-STAR-SESSION-ID` (or `Authorization: Bearer`); `app/version/get` and `quest_chapter/get_all` need no session. `?` marks an optional field.',
    'A path marked "also" is the original\'s older name of the same operation, served the same way.',
    '"answer" lists the operation\'s own answer; a session\'s operation that can change the player also answers the changed parts of its view (`Changes` in the OpenAPI document).',
    'A read (kind "read") never changes the player: its answer carries no changed parts, it is never committed, and it can be repeated freely.',
    'The machine-readable form, with full schemas, is served at `GET /api/openapi.json`.',
    '',
  ];
  const groups = [...new Set(OPERATIONS.map((o) => o.group))];
  for (const g of groups) {
    lines.push(
      `## ${g}`,
      '',
      '| operation | method and path | request | answer | result codes | kind |',
      '|---|---|---|---|---|---|',
    );
    for (const op of OPERATIONS.filter((o) => o.group === g)) {
      const codes =
        op.errors
          .map((e) => RESULT_CODES[e].resultCode)
          .filter((c, i, a) => a.indexOf(c) === i)
          .join(', ') || '—';
      const aliases = (op.aliases ?? []).map((p) => ` (also \`${p}\`)`).join('');
      lines.push(
        `| ${op.name} | ${op.method} \`${op.path}\`${aliases} | ${fieldsOf(schemaOf(op.request))} | ${fieldsOf(schemaOf(op.response))} | ${codes} | ${op.readOnly === true ? 'read' : 'write'} |`,
      );
    }
    lines.push('');
  }
  lines.push('## Result codes', '', '| code | name | HTTP status | message |', '|---|---|---|---|');
  for (const name of [...ERROR_NAMES].sort((a, b) => RESULT_CODES[a].resultCode - RESULT_CODES[b].resultCode)) {
    lines.push(`| ${RESULT_CODES[name].resultCode} | ${name} | ${HTTP_STATUS[name]} | ${describe(name)} |`);
  }
  lines.push(
    '',
    'Every request error also names the field (102 invalid, 103 missing). Unknown paths answer 404 with 102.',
    '',
  );
  return `${lines.join('\n')}\n`;
};

const DESCRIPTIONS: Partial<Record<(typeof ERROR_NAMES)[number], string>> = {
  INVALID_PARAMETERS: 'a field is not valid (named in the message)',
  INSUFFICIENT_PARAMETERS: 'a required field is missing',
  NOT_FOUND: 'no such entity (master id or owned id)',
  DB_ERROR: 'storage failed (disk full, I/O); nothing changed',
};
const describe = (name: (typeof ERROR_NAMES)[number]): string =>
  DESCRIPTIONS[name] ?? name.toLowerCase().replace(/_/g, ' ');
