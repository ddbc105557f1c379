import {
  APPLICATION_ERRORS,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PARSE_ERROR,
} from '../errors.js';
import { RPC_METHODS } from '../method-table.js';
import { LISTENER_NAMESPACES, type Listener, type ParamSpec, type RpcMethod } from '../rpc-method.js';

const LISTENERS: Record<Listener, string> = {
  public: 'Public listener (`--port`, default 8080; no authentication; CORS)',
  admin: 'Admin listener (`--admin-port`, default 8880, bound to 127.0.0.1; admin API key)',
};

/** docs/rpc.md, rendered from the method table and the error table; the docs test keeps the file fresh. */
export function renderRpcDocs(): string {
  const out: string[] = [
    '# JSON-RPC methods',
    '',
    '<!-- Generated from src/rpc/method-table.ts by `npm run build && node scripts/generate-rpc-docs.js`. Do not edit. -->',
    '',
    'Every call is `POST /` with `Content-Type: application/json` and a JSON-RPC 2.0 body',
    '(`{"jsonrpc":"2.0","id":1,"method":"node_getBlockNumber","params":[]}`), alone or in a batch array',
    '(at most `--rpc-max-batch-size`, default 100; items run concurrently and are answered in order).',
    'Params are positional: `params` must be an array (missing means `[]`); trailing optional params may be',
    'omitted or `null`. Not found and void results are `null`. `GET /status` answers 200 while the node serves',
    'and 503 while it starts or stops; it needs no key. Differences from Aztec 4.1.2: docs/compatibility.md.',
    '',
    '## Answer styles',
    '',
    "Where the spec and the official Aztec 4.1.2 client disagree on a result's form, `--rpc-answer-style`",
    '(`NODE_RPC_ANSWER_STYLE`) chooses. `aztec` (the default) answers what the 4.1.2 client reads: receipt',
    'statuses `proposed`, `checkpointed`, `proven`, `finalized`; sibling paths (`SiblingPath`) as base64 of a',
    "u32 count and the 32-byte nodes. `spec` answers the spec's forms: status `mined` for every included tx;",
    'sibling paths, the second item of `node_getL1ToL2MessageMembershipWitness` included, as `string[]` of',
    '0x + 64 hex digits, leaf level first. Everything else is the same in both styles.',
    '',
    '## Error codes',
    '',
    'A JSON-RPC error travels with HTTP 200, except a missing or wrong admin key (401), a wrong HTTP verb (405)',
    'and a body over `--rpc-max-body-size` (413).',
    '',
    '| Code | `data.code` | Meaning |',
    '|---|---|---|',
    `| ${PARSE_ERROR} | | the body is not JSON |`,
    `| ${INVALID_REQUEST} | | not a JSON-RPC request (or an empty or oversized batch, wrong Content-Type) |`,
    `| ${METHOD_NOT_FOUND} | | unknown method, or a method of the other listener |`,
    `| ${INVALID_PARAMS} | | a param is wrong: the message names its index, its name and what was expected |`,
    `| ${INTERNAL_ERROR} | | a bug: the message carries an id to find in the node log |`,
    ...Object.entries(APPLICATION_ERRORS).map(([name, e]) => `| ${e.code} | \`${name}\` | ${e.meaning} |`),
    '',
  ];
  const methods = Object.values(RPC_METHODS) as RpcMethod[];
  for (const listener of ['public', 'admin'] as const) {
    const namespaces = LISTENER_NAMESPACES[listener].map((ns) => `\`${ns}_\``).join(' and ');
    out.push(`## ${namespaces} methods`, '', `${LISTENERS[listener]}.`, '');
    out.push('| Method | Params | Returns | Aztec 4.1.2 |', '|---|---|---|---|');
    for (const m of methods.filter((x) => x.listener === listener)) {
      const params = m.params.map(signature).join(', ') || 'none';
      out.push(
        `| [\`${m.name}\`](#${m.name.toLowerCase()}) | ${escapeCell(params)} | \`${escapeCell(m.result.type)}\` | ${m.compat.aztec} |`,
      );
    }
    out.push('');
    for (const m of methods.filter((x) => x.listener === listener)) out.push(...section(m));
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function signature(p: ParamSpec): string {
  return p.presence === 'required' ? p.name : `${p.name}?`;
}

function section(m: RpcMethod): string[] {
  const lines = [`### ${m.name}`, '', m.summary, ''];
  if (m.params.length > 0) {
    lines.push('| # | Param | Type | | Description |', '|---|---|---|---|---|');
    m.params.forEach((p, i) => {
      const presence =
        p.presence === 'required'
          ? 'required'
          : p.presence === 'defaulted'
            ? `optional, default \`${JSON.stringify(p.defaultValue)}\``
            : 'optional';
      lines.push(
        `| ${i} | \`${p.name}\` | \`${escapeCell(p.wire.type)}\` | ${presence} | ${escapeCell(p.description)} |`,
      );
    });
    lines.push('');
  }
  lines.push(`Returns \`${escapeCell(m.result.type)}\`.`);
  lines.push(
    m.compat.aztec === 'same'
      ? 'Aztec 4.1.2: same method and params.'
      : `Aztec 4.1.2: ${m.compat.aztec}: ${m.compat.note}.`,
  );
  lines.push('');
  return lines;
}

function escapeCell(s: string): string {
  return s.replaceAll('|', '\\|');
}
