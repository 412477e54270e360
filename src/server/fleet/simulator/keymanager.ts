import { timingSafeEqual } from 'node:crypto';
import { hex, validatorIndex, type SimChains, type SimNode } from './chain';

type Reply = { status: number; body: unknown; changed?: boolean };

const PATHS = /^\/eth\/v1\/(keystores|validator\/(0x[0-9a-fA-F]{96})\/(feerecipient|voluntary_exit))$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Is this one of the Keymanager API paths the simulated validator client answers? */
export const isKeymanagerPath = (path: string) => PATHS.test(path);

const error = (status: number, message: string): Reply => ({ status, body: { code: status, message } });

function tokenMatches(expected: string | undefined, header: string | undefined): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  if (!expected || !given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The simulated validator client's Keymanager API (ethereum/keymanager-APIs), the calls
 * the platform makes: list the local keystores, read and set one key's fee recipient, sign
 * a voluntary exit (which, as on Lighthouse, needs the validator known to the beacon node).
 * Like Lighthouse: no token 401, a wrong token 403, an unknown key 404, a set answers 202.
 */
export function keymanagerAnswer(
  node: SimNode,
  method: string,
  path: string,
  body: unknown,
  authorization: string | undefined,
  /** Its chain, for the exit's epoch (none: epoch 0). */
  chains?: SimChains,
): Reply {
  if (!node.keymanagerToken) return error(404, 'this node runs no validator client');
  if (!authorization) return error(401, 'missing authorization header');
  if (!tokenMatches(node.keymanagerToken, authorization)) return error(403, 'invalid API token');
  const m = PATHS.exec(path)!;
  const validators = node.validators ?? [];
  if (m[1] === 'keystores') {
    if (method !== 'GET') return error(405, 'GET only here');
    return {
      status: 200,
      body: { data: validators.map((v) => ({ validating_pubkey: v.pubkey, derivation_path: '', readonly: false })) },
    };
  }
  const v = validators.find((x) => x.pubkey === m[2].toLowerCase());
  if (!v) return error(404, `no validator with pubkey ${m[2]}`);
  if (m[3] === 'voluntary_exit') {
    if (method !== 'POST') return error(405, 'POST only here');
    if (node.registeredAt === null)
      return error(400, 'Validator not found on the beacon chain: its deposit is not seen yet');
    const epoch = String(Math.floor((chains?.height(node) ?? 0) / 32));
    return {
      status: 200,
      body: {
        data: {
          message: { epoch, validator_index: validatorIndex(node) },
          signature: `0x${hex(192, `exit:${node.nodeId}:${epoch}`)}`,
        },
      },
    };
  }
  if (method === 'GET') return { status: 200, body: { data: { pubkey: v.pubkey, ethaddress: v.feeRecipient } } };
  if (method !== 'POST') return error(405, 'GET or POST');
  const addr = (body as { ethaddress?: unknown } | undefined)?.ethaddress;
  if (typeof addr !== 'string' || !ADDRESS.test(addr)) return error(400, 'Invalid ethaddress');
  v.feeRecipient = addr;
  return { status: 202, body: null, changed: true };
}
