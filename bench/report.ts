import fs from 'node:fs';
import os from 'node:os';

const FILE = 'docs/benchmarks.md';
const HEADER = '# Benchmarks\n\nWritten by `npm run bench`; each section is replaced when its benchmark runs again.\n';

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.platform()} ${os.release()}, Node ${process.version}`;
}

/** Replaces (or appends) the section between `<!-- bench:name -->` markers. */
export function writeSection(name: string, body: string): void {
  const current = fs.existsSync(FILE) ? fs.readFileSync(FILE, 'utf8') : HEADER;
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const re = new RegExp(`${start}[\\s\\S]*?${end}`);
  const next = re.test(current) ? current.replace(re, section) : `${current.trimEnd()}\n\n${section}\n`;
  fs.mkdirSync('docs', { recursive: true });
  fs.writeFileSync(FILE, next);
}
