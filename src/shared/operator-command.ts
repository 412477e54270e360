/**
 * How the operator types a command: `nodekeep <command>` with the single executable, and
 * `npm run nodekeep -- <command>` in a checkout (the executable has no npm, a checkout no
 * `nodekeep` on the PATH). The server knows which it is (runtime/executable.ts) and tells
 * the console, so every text shows the form the operator's install uses.
 */
export function commandPrefix(inExecutable: boolean): string {
  return inExecutable ? 'nodekeep' : 'npm run nodekeep --';
}

/** A whole command line as the operator types it: `nodekeep coins check dash`. */
export function operatorCommandLine(inExecutable: boolean, command: string): string {
  return `${commandPrefix(inExecutable)} ${command}`;
}
