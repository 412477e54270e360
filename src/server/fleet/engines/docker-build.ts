import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Readable } from 'node:stream';
import Docker from 'dockerode';
import * as v from 'valibot';
import { packTar, type TarEntry } from '../../kernel/tar';
import type { HostConnection } from '../host-url';
import { daemonMessage, fromChecked, socketCode, toConnection } from './docker';

/**
 * Image builds on a Docker/Podman host through its Engine API (`POST /build`): a build
 * context as a tar, the tag, the build arguments; the build's output comes back as JSON
 * lines, handed on one text line at a time. An adapter: it knows no profile, host row or
 * build record (nodes/images.ts does).
 */
export type BuildTarget = {
  /** `unix:///…/docker.sock` or `tcp://127.0.0.1:port`, as a host row names it. */
  url: string;
  /** How to connect, checked by fleet/host-url.ts (TLS client certificate, SSH); without it, from `url`. */
  connection?: HostConnection;
};

export type BuildRequest = {
  /** The image's name and tag, e.g. `localhost/nodekeep/pivxd:5.6.1`. */
  tag: string;
  buildArgs: Record<string, string>;
  /** The recipe's file name in the context. */
  dockerfile?: string;
  /** Stops the build (the connection is cut; the runtime stops building). */
  signal?: AbortSignal;
};

/** A finished build: its image id, or the step that failed in the builder's words. */
export type BuildOutcome = { ok: true; imageId: string | null } | { ok: false; message: string };

/** The host could not be asked (unreachable, or it refused the request before building). */
export class DockerBuildError extends Error {
  constructor(
    readonly code: 'unreachable' | 'api',
    message: string,
  ) {
    super(message);
    this.name = 'DockerBuildError';
  }
}

const API_VERSION = 'v1.41';
/** The recipe's file name: Podman's own, which Docker reads when told (`dockerfile`). */
export const RECIPE_FILE = 'Containerfile';

/** One line of the build stream: Docker and Podman both send these fields (and more, ignored). */
const BuildLine = v.looseObject({
  stream: v.optional(v.string()),
  status: v.optional(v.string()),
  error: v.optional(v.string()),
  errorDetail: v.optional(v.looseObject({ message: v.optional(v.string()) })),
  aux: v.optional(v.looseObject({ ID: v.optional(v.string()) })),
});

/**
 * The recipe folder as a build context: every regular file under `dir`, by its path
 * relative to it, with its mode (a script stays executable). Links and other special
 * files are refused: the context is what the folder holds, nothing it points at.
 */
export function recipeContext(dir: string): Readable {
  const entries: TarEntry[] = [];
  const walk = (rel: string) => {
    for (const d of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const name = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) walk(name);
      else if (d.isFile())
        entries.push({ name, mode: fs.statSync(path.join(dir, name)).mode & 0o755, file: path.join(dir, name) });
      else throw new Error(`recipe ${dir}: ${name} is not a regular file or folder`);
    }
  };
  walk('');
  // Sorted: the same folder makes the same archive.
  entries.sort((a, b) => a.name.localeCompare(b.name));
  return packTar(entries, new Date(0));
}

/**
 * Builds `context` on the host as `req.tag`, calling `onLine` with each line of its output
 * as it comes. A failed step is an outcome (`ok: false` with the step's last output line
 * and the builder's error); a host that cannot be reached or refuses the request throws
 * DockerBuildError.
 */
export async function buildImage(
  target: BuildTarget,
  context: Readable,
  req: BuildRequest,
  onLine: (line: string) => void,
): Promise<BuildOutcome> {
  // A connection of its own for the one long request; over TLS an https agent (docker-modem
  // adds the CA, certificate and key), over SSH docker-modem's own tunnelling agent.
  const agent =
    target.connection?.kind === 'tls' ? new https.Agent({ keepAlive: false }) : new http.Agent({ keepAlive: false });
  const modem: Docker.DockerOptions & { agent: http.Agent } = {
    ...(target.connection ? fromChecked(target.connection) : toConnection(target.url)),
    version: API_VERSION,
    agent,
  };
  const docker = new Docker(modem);
  let stream: NodeJS.ReadableStream;
  try {
    stream = await docker.buildImage(context, {
      t: req.tag,
      dockerfile: req.dockerfile ?? RECIPE_FILE,
      buildargs: req.buildArgs,
      // Intermediate containers of a failed step go too: a host keeps only finished images.
      rm: true,
      forcerm: true,
      abortSignal: req.signal,
    });
  } catch (err) {
    agent.destroy();
    if (socketCode(err))
      throw new DockerBuildError('unreachable', `docker host ${target.url} unreachable: ${daemonMessage(err)}`);
    throw new DockerBuildError('api', `docker host ${target.url} refused the build: ${daemonMessage(err)}`);
  }
  let imageId: string | null = null;
  let error: string | null = null;
  let last = '';
  const text = (t: string) => {
    for (const raw of t.split('\n')) {
      const line = raw.replace(/\r$/, '').trimEnd();
      if (!line) continue;
      last = line;
      onLine(line);
    }
  };
  const take = (json: string) => {
    if (!json.trim()) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      return text(json); // not JSON: a builder that prints plain text
    }
    const r = v.safeParse(BuildLine, parsed);
    if (!r.success) return text(json);
    const l = r.output;
    if (l.stream) text(l.stream);
    if (l.status) text(l.status);
    if (l.aux?.ID) imageId = l.aux.ID;
    const e = l.errorDetail?.message ?? l.error;
    if (e) error = e.trim();
  };
  let rest = '';
  try {
    for await (const chunk of stream as AsyncIterable<Buffer | string>) {
      rest += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) take(l);
    }
    take(rest);
  } catch (err) {
    if (req.signal?.aborted) return { ok: false, message: 'the build was stopped' };
    return { ok: false, message: `the build stream broke off: ${daemonMessage(err)}` };
  } finally {
    agent.destroy();
  }
  if (error !== null) {
    // The failed step's own last words (e.g. "SHA256 is required: …") before the builder's summary.
    const said = last && !String(error).includes(last) ? `${last} (${error})` : String(error);
    return { ok: false, message: said };
  }
  return { ok: true, imageId };
}
