/**
 * The CPU time (user and system, every thread of the process: GC helpers included) of a
 * `process.cpuUsage` difference, in ms: on a loaded machine a steadier measure than the clock.
 */
export const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000

/** A case prints one JSON line on stdout: its measurements. */
export const report = (result: object) => {
  process.stdout.write(JSON.stringify(result) + "\n")
  process.exit(0)
}
