/**
 * What the real `s2` binary shows of a command line it cannot parse (issue 36, "cut long values in
 * messages"): effect/cli hands `s2` each word whole, and a 120,000-character value, option or
 * command name made a 120 KB line. Each is cut as the client cuts what it quotes (`excerpt`).
 */
import { describe, expect, it } from "@effect/vitest"
import { runS2 } from "./support/inProcess.js"

const s2 = (args: ReadonlyArray<string>) => runS2(args)

const huge = "x".repeat(120_000)

/** Each command line, and the start of its one line on stderr. */
const cases: ReadonlyArray<readonly [ReadonlyArray<string>, RegExp]> = [
  [["paper", "CorpusId:1", "--format", huge], /^s2: --format "x{150,}…" is invalid: give one of json, /],
  [["paper", "CorpusId:1", `--format=${huge}`], /^s2: --format "x{150,}…" is invalid: give one of json, /],
  [[huge], /^s2: unknown command "x{150,}…": use one of paper, /],
  [["datasets", huge], /^s2: unknown command "x{150,}…": use one of releases, /],
  [["help", huge], /^s2: unknown command "x{150,}…": use one of paper, /],
  [["paper", `--${huge}`], /^s2: unknown option --x{150,}… \(see s2 paper --help\)\n$/],
  [["paper", "CorpusId:1", huge], /^s2: unexpected argument "x{150,}…" \(see s2 paper --help\)\n$/],
  [["graph", "CorpusId:1", "--depth", huge], /^s2: --depth "x{150,}…" is invalid: give an integer\n$/]
]

describe("a command line s2 cannot parse", () => {
  it("a 120,000-character value, option or command: one line under 2 KB, exit 2", async () => {
    for (const [args, line] of cases) {
      const ran = await s2(args)
      const what = args.map((arg) => arg.slice(0, 20)).join(" ")
      expect(ran.code, what).toBe(2)
      expect(ran.stdout, what).toBe("")
      expect(ran.stderr.length, what).toBeLessThan(2000)
      expect(ran.stderr.trimEnd().split("\n"), what).toHaveLength(1)
      expect(ran.stderr, what).toMatch(line)
    }
  }, 180_000)

  it("a control character in an unknown option is shown escaped, on the same line", async () => {
    const ran = await s2(["paper", "--x\ns2: forged"])
    expect(ran.code).toBe(2)
    expect(ran.stderr.trimEnd().split("\n")).toHaveLength(1)
    expect(ran.stderr).toMatch(/^s2: unknown option --x\\ns2: forged \(see s2 paper --help\)\n$/)
  }, 60_000)
})
