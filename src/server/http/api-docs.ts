import { escapeHtml } from '../kernel/html';
import { authText, inputObject, jsonSchema } from './openapi';
import type { RestRoute } from './routes';

/** `{username, password, tfa?}` for a body, `coin` for a query; – without input. */
export function inputSummary(route: RestRoute): string {
  const obj = inputObject(route);
  const names = Object.keys(obj?.properties ?? {}).map((n) => (obj?.required?.includes(n) ? n : `${n}?`));
  if (!names.length) return '–';
  return route.method === 'GET' ? names.join(', ') : `{${names.join(', ')}}`;
}

const AUTH_SHORT = { public: 'public', session: 'session', 'session-or-key': 'session or API key' } as const;

/** The generated route table of docs/api.md (scripts/api-docs.ts writes it). */
export function routeTableMarkdown(routes: RestRoute[]): string {
  const row = (r: RestRoute) =>
    `| \`${r.method} ${r.path}\` | \`${r.procedure}\` | ${AUTH_SHORT[r.auth]} | ${inputSummary(r) === '–' ? '–' : `\`${inputSummary(r)}\``} | ${r.summary.replace(/\|/g, '\\|')}${r.cacheMs ? ` (cached ${r.cacheMs / 1000} s)` : ''} |`;
  const table = (title: string, list: RestRoute[]) =>
    [
      `### ${title}`,
      '',
      '| Method and path | tRPC | Auth | Input | Answer |',
      '|---|---|---|---|---|',
      ...list.map(row),
      '',
    ].join('\n');
  return [
    table(
      'Public (`/public_api`)',
      routes.filter((r) => !r.path.startsWith('/api/')),
    ),
    table(
      'Private (`/api`, bearer token)',
      routes.filter((r) => r.path.startsWith('/api/')),
    ),
  ].join('\n');
}

export const ROUTES_START = '<!-- generated routes: npm run docs:api -->';
export const ROUTES_END = '<!-- end of generated routes -->';

/** docs/api.md with its generated part replaced by the current one. */
export function withRouteTable(markdown: string, routes: RestRoute[]): string {
  const start = markdown.indexOf(ROUTES_START);
  const end = markdown.indexOf(ROUTES_END);
  if (start < 0 || end < start) throw new Error(`docs/api.md needs the markers ${ROUTES_START} and ${ROUTES_END}`);
  return `${markdown.slice(0, start + ROUTES_START.length)}\n\n${routeTableMarkdown(routes)}\n${markdown.slice(end)}`;
}

/** The few markdown bits the summaries use: `code`. */
const inline = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>');

function section(r: RestRoute): string {
  const input = r.input ? jsonSchema(r.input, 'input') : null;
  const output = r.output ? jsonSchema(r.output, 'output') : null;
  const id = r.path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
  const curl =
    r.method === 'GET'
      ? `curl ${r.auth === 'public' ? '' : "-H 'Authorization: Bearer $TOKEN' "}'$BASE${r.path}${inputSummary(r) === '–' ? '' : '?…'}'`
      : `curl -X POST -H 'Content-Type: application/json' ${r.auth === 'public' ? '' : "-H 'Authorization: Bearer $TOKEN' "}-d '{…}' $BASE${r.path}`;
  return `<section id="${id}">
<h3><span class="method ${r.method.toLowerCase()}">${r.method}</span> <code>${escapeHtml(r.path)}</code></h3>
<p>${inline(r.summary)}</p>
<p class="auth">${inline(authText(r))} tRPC <code>${escapeHtml(r.procedure)}</code>.${r.cacheMs ? ` Cached for ${r.cacheMs / 1000} s.` : ''}</p>
<pre class="curl">${escapeHtml(curl)}</pre>
${input ? `<details><summary>${r.method === 'GET' ? 'Query parameters' : 'Request body'}</summary><pre>${escapeHtml(JSON.stringify(input, null, 2))}</pre></details>` : '<p class="none">No input.</p>'}
${output ? `<details><summary>Answer</summary><pre>${escapeHtml(JSON.stringify(output, null, 2))}</pre></details>` : ''}
</section>`;
}

/** The page at /api/docs: server-rendered, one stylesheet from this origin, no script. */
export function apiDocsHtml(routes: RestRoute[]): string {
  const nav = routes
    .map(
      (r) =>
        `<li><a href="#${r.path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}">${r.method} ${escapeHtml(r.path)}</a></li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nodekeep API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/api/docs.css">
</head>
<body>
<header><h1>Nodekeep API</h1>
<p>REST routes for scripts. Send <code>Authorization: Bearer &lt;token&gt;</code> on private calls: the <code>auth_token</code> from
<code>POST /public_api/login</code>, or an API key where a call allows one. POST bodies are JSON with
<code>Content-Type: application/json</code>; unknown fields are refused. Every failure answers
<code>{"success": false, "message": "…"}</code> with a 4xx or 5xx status. The machine-readable description is
<a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p></header>
<nav><ul>${nav}</ul></nav>
<main>
<h2>Public</h2>
${routes
  .filter((r) => !r.path.startsWith('/api/'))
  .map(section)
  .join('\n')}
<h2>Private</h2>
${routes
  .filter((r) => r.path.startsWith('/api/'))
  .map(section)
  .join('\n')}
</main>
</body>
</html>
`;
}

export const API_DOCS_CSS = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7fb; display: grid; grid-template-columns: 17rem 1fr; }
header { grid-column: 1 / -1; padding: 1.5rem 2rem; background: #fff; border-bottom: 1px solid #e2e5ee; }
header p { max-width: 60rem; }
nav { padding: 1rem; position: sticky; top: 0; align-self: start; max-height: 100vh; overflow: auto; }
nav ul { list-style: none; padding: 0; margin: 0; font-size: 13px; }
nav a { color: #2a4cb3; text-decoration: none; display: block; padding: 2px 0; word-break: break-all; }
main { padding: 1rem 2rem 4rem; min-width: 0; }
section { background: #fff; border: 1px solid #e2e5ee; border-radius: 8px; padding: 0.5rem 1.25rem; margin: 1rem 0; }
h3 { font-size: 16px; }
.method { display: inline-block; min-width: 3.5rem; text-align: center; border-radius: 4px; color: #fff; font-size: 12px; padding: 2px 6px; }
.method.get { background: #2f855a; }
.method.post { background: #2a4cb3; }
.auth { color: #555d70; font-size: 13px; }
pre { background: #f1f3f8; padding: 0.75rem; overflow: auto; font-size: 12px; border-radius: 6px; }
pre.curl { white-space: pre-wrap; word-break: break-all; }
code { font-family: ui-monospace, monospace; font-size: 0.92em; }
@media (max-width: 700px) { body { display: block; } nav { position: static; max-height: none; } main { padding: 1rem; } }
`;
