import type { EngineHost } from './daemon-node';
import type { DaemonProfile } from './profiles';

/** A version as operators write them: "22.1.3", "0.14.14.1-rc2". */
export const DAEMON_VERSION = /^[\w.+-]{1,40}$/;

/** The version a profile runs when nothing else is said: its `version`, or none (the simulator's own). */
export const profileVersion = (profile: DaemonProfile): string | null =>
  profile.run === 'binary' ? (profile.version ?? null) : null;

/**
 * The image of `version` for a containerised daemon: the profile's image with its tag
 * (the profile's version) replaced. Null when the profile's image is not tagged with its
 * version, so no other version's image can be named.
 */
export function versionedImage(profile: DaemonProfile, version: string): string | null {
  if (profile.run !== 'binary' || !profile.image || !profile.version) return null;
  const tag = `:${profile.version}`;
  return profile.image.endsWith(tag) ? `${profile.image.slice(0, -tag.length)}:${version}` : null;
}

/**
 * Can a node of this profile on this host run another daemon version? A simulated node
 * (the simulator stands for any version), or a container whose image is tagged with its
 * version. A daemon run from a path on this machine is one program: it cannot.
 */
export function canChangeVersion(profile: DaemonProfile, host: Pick<EngineHost, 'engine'>): boolean {
  if (profile.run === 'simulator') return true;
  return host.engine === 'docker' && versionedImage(profile, profile.version ?? '') !== null;
}
