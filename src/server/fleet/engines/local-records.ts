import fs from 'node:fs';
import path from 'node:path';
import type { DaemonSpec } from '../engine';
import { placeFiles } from './local-files';

/** A simulated node's secrets (its Keymanager token), beside its record and never in it. */
const SIM_SECRETS = 'simulated-secrets.json';

/** `aside`: stopped by `setAside` (its node not the database's, or not placed here), not by the fleet. */
export type NodeRecord = { spec: DaemonSpec; desired: 'running' | 'stopped'; aside?: true };

/**
 * The local engine's memory, kept on disk so it outlives the platform's process: one
 * folder per node under `dir` with its record (spec and desired state), and beside it
 * the pid file and log the supervisor writes.
 */
export class NodeRecords {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  nodeDir(id: string) {
    return path.join(this.dir, id);
  }

  /** The daemon's output (stdout and stderr), appended across its restarts. */
  logFile(id: string) {
    return path.join(this.nodeDir(id), 'daemon.log');
  }

  /** The folders that hold a record (other entries are not nodes). */
  ids(): string[] {
    return fs.readdirSync(this.dir).filter((d) => this.read(d));
  }

  read(id: string): NodeRecord | null {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.nodeDir(id), 'node.json'), 'utf8')) as NodeRecord;
    } catch {
      return null;
    }
  }

  get(id: string): NodeRecord {
    const rec = this.read(id);
    if (!rec) throw new Error(`local engine has no node ${id}`);
    return rec;
  }

  /**
   * The record is 0600 (its arguments name the node's data and ports), and a simulated
   * validator's Keymanager token is kept apart from it, in its own 0600 file
   * (SIM_SECRETS) that start() hands to the simulator: a record written by an earlier
   * version with the token in it loses it at its next write.
   */
  write(id: string, rec: NodeRecord) {
    fs.mkdirSync(this.nodeDir(id), { recursive: true });
    const token = rec.spec.simulated?.keymanagerToken;
    if (token) {
      placeFiles(this.nodeDir(id), [
        { name: SIM_SECRETS, content: JSON.stringify({ keymanagerToken: token }), mode: 0o600 },
      ]);
      const { keymanagerToken: _, ...simulated } = rec.spec.simulated!;
      rec = { ...rec, spec: { ...rec.spec, simulated } };
    }
    placeFiles(this.nodeDir(id), [{ name: 'node.json', content: JSON.stringify(rec, null, 1), mode: 0o600 }]);
  }

  /** A simulated node's settings with the secrets kept beside its record. */
  simulatedSettings(id: string, simulated: NonNullable<DaemonSpec['simulated']>): NonNullable<DaemonSpec['simulated']> {
    try {
      const secrets = JSON.parse(fs.readFileSync(path.join(this.nodeDir(id), SIM_SECRETS), 'utf8')) as {
        keymanagerToken?: string;
      };
      return { ...simulated, ...(secrets.keymanagerToken ? { keymanagerToken: secrets.keymanagerToken } : {}) };
    } catch {
      return simulated;
    }
  }
}
