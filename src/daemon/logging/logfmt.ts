/**
 * One pino JSON line as logfmt (`time=... level=info module=rpc msg="..." key=value`), the format Loki, Heroku and
 * many log shippers read as key-value pairs. `time`, `level`, `module` and `msg` come first; nested values are
 * written as their JSON text, quoted. pino's numeric levels become their names.
 */
export function toLogfmt(jsonLine: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine;
  }
  const { time, level, module, msg, ...rest } = record;
  const pairs: string[] = [];
  if (time !== undefined) pairs.push(`time=${typeof time === 'number' ? new Date(time).toISOString() : value(time)}`);
  if (level !== undefined) pairs.push(`level=${typeof level === 'number' ? (LEVELS[level] ?? level) : value(level)}`);
  if (module !== undefined) pairs.push(`module=${value(module)}`);
  if (msg !== undefined) pairs.push(`msg=${value(msg)}`);
  for (const [k, v] of Object.entries(rest)) {
    if (v !== undefined) pairs.push(`${key(k)}=${value(v)}`);
  }
  return `${pairs.join(' ')}\n`;
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

function key(k: string): string {
  return k.replace(/[^A-Za-z0-9_.-]/g, '_');
}

function value(v: unknown): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return /^[^\s"=\\]+$/.test(text) ? text : JSON.stringify(text);
}
