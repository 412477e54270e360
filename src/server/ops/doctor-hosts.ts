import type { DB } from '../db/open';
import type { Host } from '../db/schema';
import type { Logger } from '../kernel/log';
import { connectionOf, dockerEngineFor } from '../nodes/hosts';
import { listHosts } from '../nodes/read';
import type { SecretBox } from '../secrets/box';
import type { CheckResult } from './doctor-result';

const TIMEOUT_MS = 15_000;

/** What to do when a host does not answer, by how it is reached. */
function adviceFor(kind: string, host: Host): string {
  if (kind === 'socket')
    return `start the Docker or Podman service that serves ${host.url} (systemctl enable --now podman.socket, or docker), and let this user open the socket`;
  if (kind === 'tls')
    return `check that ${host.url} is reachable from here and that its CA, client certificate and key are current (not expired, same CA as the daemon's --tlsverify)`;
  if (kind === 'ssh') return `check that ssh with the host's key reaches ${host.url} and that its user may run docker`;
  return `start the Docker API that listens at ${host.url}`;
}

/**
 * Every Docker/Podman host of the fleet (the local engine runs here and needs no check;
 * removed hosts are left out): its API answers, through the same engine adapter and
 * credentials the control loop uses, over TLS or SSH where the host is set up so.
 */
export async function checkHosts(db: DB, box: Pick<SecretBox, 'open'>, log: Logger): Promise<CheckResult[]> {
  const hosts = (await listHosts(db)).filter((h) => h.engine === 'docker' && h.state !== 'gone');
  return Promise.all(
    hosts.map(async (host): Promise<CheckResult> => {
      const name = `host ${host.name}`;
      let kind: string;
      try {
        kind = connectionOf(box, host).kind;
      } catch (err) {
        return {
          name,
          ok: false,
          detail: `cannot read its connection: ${(err as Error).message}`,
          advice: 'set SECRETS_KEY (or the data folder) to the one the host was added with',
        };
      }
      const engine = dockerEngineFor(box, host, log);
      let timer: NodeJS.Timeout | undefined;
      try {
        const late = new Promise<never>(
          (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${TIMEOUT_MS} ms`)), TIMEOUT_MS)),
        );
        const nodes = await Promise.race([engine.list(), late]);
        const over = kind === 'tls' ? ' over TLS' : kind === 'ssh' ? ' over SSH' : '';
        return { name, ok: true, detail: `${host.url} answers${over}, ${nodes.length} nodes of this platform on it` };
      } catch (err) {
        return { name, ok: false, detail: (err as Error).message, advice: adviceFor(kind, host) };
      } finally {
        clearTimeout(timer);
        await engine.close();
      }
    }),
  );
}
