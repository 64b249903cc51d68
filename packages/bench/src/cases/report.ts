/** A case prints one JSON line on stdout: its measurements. */
export const report = (result: object) => {
  process.stdout.write(JSON.stringify(result) + "\n")
  process.exit(0)
}
