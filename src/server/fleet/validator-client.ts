import path from 'node:path';
import type { DaemonSpec } from './engine';

/**
 * What an EVM validator node's validator client (Lighthouse `vc`) is given: its keystore,
 * the keystore's password and the Keymanager API token as files in the node's data folder
 * (mode 0600), listed in Lighthouse's `validator_definitions.yml`. Nothing secret goes on
 * a command line, where `ps` and the engine's container record would show it.
 */
export type ValidatorRun = {
  /** BLS public key, with or without 0x (the keystore's `pubkey`). */
  pubkey: string;
  /** The EIP-2335 keystore as uploaded. */
  keystore: string;
  password: string;
  feeRecipient: string;
  /** Bearer token of the client's Keymanager API. */
  token: string;
};

export type SpecFile = NonNullable<DaemonSpec['files']>[number];

/** File names in the data folder (flat: the client's `--validators-dir` is the data folder). */
export const VALIDATOR_FILES = {
  definitions: 'validator_definitions.yml',
  keystore: 'voting-keystore.json',
  password: 'voting-keystore.password',
  token: 'api-token.txt',
} as const;

const SECRET_MODE = 0o600;

export function normalPubkey(pubkey: string): string {
  const hex = pubkey.toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{96}$/.test(hex)) throw new Error('a validator public key is 48 bytes of hex');
  return `0x${hex}`;
}

/** A YAML double-quoted scalar: JSON's string syntax is one (for these ASCII values), and quoting keeps `0x…` a string, not a hex number. */
const q = (s: string) => JSON.stringify(s);

/**
 * Lighthouse's validator_definitions.yml with the node's one validator (keys as in the
 * Lighthouse book, "Validator Management"); paths are absolute, as the client sees them.
 */
export function validatorDefinitions(dataDir: string, run: Pick<ValidatorRun, 'pubkey' | 'feeRecipient'>): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(run.feeRecipient)) throw new Error('the fee recipient is not an address');
  return [
    '---',
    '- enabled: true',
    `  voting_public_key: ${q(normalPubkey(run.pubkey))}`,
    '  type: local_keystore',
    `  voting_keystore_path: ${q(path.posix.join(dataDir, VALIDATOR_FILES.keystore))}`,
    `  voting_keystore_password_path: ${q(path.posix.join(dataDir, VALIDATOR_FILES.password))}`,
    `  suggested_fee_recipient: ${q(run.feeRecipient)}`,
    '',
  ].join('\n');
}

/** The four files, each 0600. The password is written exactly (Lighthouse trims only a trailing newline). */
export function validatorFiles(dataDir: string, run: ValidatorRun): SpecFile[] {
  if (!/^[\w-]{16,200}$/.test(run.token)) throw new Error('the keymanager token is not a single word');
  return [
    { name: VALIDATOR_FILES.definitions, content: validatorDefinitions(dataDir, run), mode: SECRET_MODE },
    { name: VALIDATOR_FILES.keystore, content: run.keystore, mode: SECRET_MODE },
    { name: VALIDATOR_FILES.password, content: run.password, mode: SECRET_MODE },
    { name: VALIDATOR_FILES.token, content: run.token, mode: SECRET_MODE },
  ];
}

const shellWord = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;

/**
 * One bash script that runs the daemon and the validator client side by side, so both
 * engines keep running one process per node: when either exits, the other is stopped and
 * the script exits with the first one's code (the engine's restart policy brings both
 * back); SIGTERM from the engine stops both. Arguments are quoted, and hold no secret.
 */
export function bothProcessesScript(daemon: string[], client: string[]): string {
  const line = (argv: string[]) => argv.map(shellWord).join(' ');
  return [
    // `jobs -p`, not variables set after each `&`: bash runs a trap between commands, so a
    // SIGTERM right after a start found `c=$!` not yet run, left the client running and
    // waited for it (a loaded CI run saw the script outlive the SIGTERM by 30 s).
    `trap 'kill -TERM $(jobs -p) 2>/dev/null; wait; exit 143' TERM INT`,
    `${line(daemon)} &`,
    `${line(client)} &`,
    'wait -n',
    'code=$?',
    'kill -TERM $(jobs -p) 2>/dev/null',
    'wait',
    'exit "$code"',
  ].join('\n');
}
