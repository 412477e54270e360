import * as v from 'valibot';
import type { RpcEndpoint } from '../engine';
import { DaemonError, daemonRequest } from './http';

/**
 * A validator client's Keymanager API (ethereum/keymanager-APIs; Lighthouse serves it on
 * the validator client's HTTP port with a Bearer token). The simulator answers the same.
 */
export type Keymanager = { endpoint: RpcEndpoint; token: string; timeoutMs: number };

const ErrorBody = v.looseObject({ message: v.string() });
const Keystores = v.object({ data: v.array(v.looseObject({ validating_pubkey: v.string() })) });
const FeeRecipient = v.object({ data: v.looseObject({ pubkey: v.string(), ethaddress: v.string() }) });

/** A refusal in the client's words (`rpc-error`): the call reached it and it said no. */
function refused(status: number, json: unknown): DaemonError {
  const r = v.safeParse(ErrorBody, json);
  // Shown to the owner: the client's own words, bounded.
  return new DaemonError(r.success ? r.output.message.slice(0, 200) : `HTTP ${status}`, 'rpc-error');
}

const feePath = (pubkey: string) => `/eth/v1/validator/${encodeURIComponent(pubkey)}/feerecipient`;

export async function listKeystores(km: Keymanager): Promise<string[]> {
  const { status, json } = await daemonRequest(km.endpoint, {
    method: 'GET',
    path: '/eth/v1/keystores',
    bearer: km.token,
    timeoutMs: km.timeoutMs,
  });
  if (status !== 200) throw refused(status, json);
  const r = v.safeParse(Keystores, json);
  if (!r.success) throw new DaemonError('keystores: unexpected reply', 'bad-reply');
  return r.output.data.map((k) => k.validating_pubkey);
}

export async function getFeeRecipient(km: Keymanager, pubkey: string): Promise<string> {
  const { status, json } = await daemonRequest(km.endpoint, {
    method: 'GET',
    path: feePath(pubkey),
    bearer: km.token,
    timeoutMs: km.timeoutMs,
  });
  if (status !== 200) throw refused(status, json);
  const r = v.safeParse(FeeRecipient, json);
  if (!r.success) throw new DaemonError('feerecipient: unexpected reply', 'bad-reply');
  return r.output.data.ethaddress;
}

/** `POST .../feerecipient {ethaddress}`: the spec answers 202 Accepted. */
export async function setFeeRecipient(km: Keymanager, pubkey: string, address: string): Promise<void> {
  const { status, json } = await daemonRequest(km.endpoint, {
    method: 'POST',
    path: feePath(pubkey),
    body: { ethaddress: address },
    bearer: km.token,
    timeoutMs: km.timeoutMs,
  });
  if (status !== 202 && status !== 200) throw refused(status, json);
}

const SignedExit = v.object({
  data: v.object({
    message: v.object({
      epoch: v.pipe(v.string(), v.regex(/^\d+$/)),
      validator_index: v.pipe(v.string(), v.regex(/^\d+$/)),
    }),
    signature: v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{192}$/)),
  }),
});
export type SignedVoluntaryExit = v.InferOutput<typeof SignedExit>['data'];

/**
 * `POST /eth/v1/validator/{pubkey}/voluntary_exit` (Keymanager API): the client signs an
 * exit for the current epoch with the key it holds. It only signs: the beacon node's pool
 * publishes it (beacon.ts `publishVoluntaryExit`).
 */
export async function signVoluntaryExit(km: Keymanager, pubkey: string): Promise<SignedVoluntaryExit> {
  const { status, json } = await daemonRequest(km.endpoint, {
    method: 'POST',
    path: `/eth/v1/validator/${encodeURIComponent(pubkey)}/voluntary_exit`,
    bearer: km.token,
    timeoutMs: km.timeoutMs,
  });
  if (status !== 200) throw refused(status, json);
  const r = v.safeParse(SignedExit, json);
  if (!r.success) throw new DaemonError('voluntary_exit: unexpected reply', 'bad-reply');
  return r.output.data;
}

// The exit's calls are not listed here yet: the profile's facts (catalog/daemon-facts)
// cite the calls below from Lighthouse's source, and a listed call without a citation
// would unverify the profile.
/** The replies read here, by call (fleet/platform-calls.ts lists them per profile for the source check). */
export const KEYMANAGER_REPLIES = {
  'GET /eth/v1/keystores': Keystores,
  'GET /eth/v1/validator/{pubkey}/feerecipient': FeeRecipient,
};
