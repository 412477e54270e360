/**
 * One line of `nodekeep doctor`: what was checked, and what to do when it failed.
 * `warning`: passed, but doctor could not tell everything (printed as `warn`, exit code
 * unchanged): a machine without timedatectl is not a broken one.
 */
export type CheckResult = { name: string; ok: boolean; detail: string; advice?: string; warning?: boolean };
