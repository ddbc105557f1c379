import { readFileSync } from 'node:fs';
import { CliError } from './cli-error.js';
import { readStdin } from './terminal-input.js';

/**
 * Reads a Tx given as a file or `-` (stdin): the Tx JSON itself (`query tx --json` result, `tx build` output),
 * or a `--json` envelope of `tx build` / `query tx` ({status, result: {tx} | Tx}).
 */
export async function readTxInput(source: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = source === '-' ? await readStdin() : readFileSync(source, 'utf8');
  } catch (err) {
    // The exit code table: 4 for a file that does not exist, 1 for one that cannot be read.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw CliError.notFound(`no file ${source}`, [
        'name a file holding a Tx as JSON (what `tx build` prints), or - for stdin',
      ]);
    }
    throw CliError.failed(`cannot read ${source === '-' ? 'stdin' : source}: ${(err as Error).message}`, 'UNREADABLE');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw CliError.usage(
      `${source === '-' ? 'stdin' : source} is not JSON (${(err as Error).message}): expected a Tx as JSON`,
    );
  }
  const unwrapped = unwrap(json);
  if (!unwrapped) {
    throw CliError.usage(
      `${source === '-' ? 'stdin' : source} holds no Tx: expected {txHash, data, chonkProof, ...} (what \`tx build\` prints)`,
    );
  }
  return unwrapped;
}

function unwrap(json: unknown): Record<string, unknown> | undefined {
  if (!isObject(json)) return undefined;
  if (typeof json.data === 'string') return json;
  if ('status' in json && 'result' in json) return unwrap(json.result);
  if (isObject(json.tx)) return unwrap(json.tx);
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
