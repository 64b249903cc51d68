/**
 * `s2` forgiving a user's mistakes: a mistyped command or flag names the nearest, `s2 help …` and
 * `s2 version` work as their flags do, contradictory flags are refused in one line, and `NO_COLOR`
 * turns every escape off. Run in process (support/inProcess.ts): nothing here needs a process.
 */
import { describe, expect, it } from "@effect/vitest"
import packageJson from "@s2-effect/cli/package.json" with { type: "json" }
import * as fs from "node:fs"
import { colors } from "../src/Help.js"
import { runS2 } from "./support/inProcess.js"

/** No colour settings of the test's own environment leak into a run. */
const plain = { NO_COLOR: "", FORCE_COLOR: "0" }

const s2 = (args: ReadonlyArray<string>, extra: Record<string, string> = {}) =>
  runS2(args, { env: { ...plain, ...extra } })

const esc = "\x1b"

describe("mistyped commands and flags", () => {
  it("suggests the nearest command, in one line, exit 2", async () => {
    const ran = await s2(["serach", "x"])
    expect(ran.stderr).toBe("s2: unknown command \"serach\": did you mean `search`?\n")
    expect(ran.stdout).toBe("")
    expect(ran.code).toBe(2)
  })

  it("suggests the nearest subcommand of a command", async () => {
    const ran = await s2(["datasets", "lnks"])
    expect(ran.stderr).toBe("s2: unknown command \"lnks\": did you mean `links`?\n")
    expect(ran.code).toBe(2)
  })

  it("lists the commands when none is near", async () => {
    const ran = await s2(["zzzzzzzz"])
    expect(ran.stderr).toMatch(/^s2: unknown command "zzzzzzzz": use one of paper, papers, .*help, version\n$/)
    expect(ran.code).toBe(2)
  })

  it("suggests the nearest flag", async () => {
    const ran = await s2(["search", "graph", "--feilds", "title"])
    expect(ran.stderr).toBe("s2: unknown option --feilds (did you mean --fields?) (see s2 search --help)\n")
    expect(ran.code).toBe(2)
  })
})

describe("help and version as commands", () => {
  it("s2 help is s2 --help", async () => {
    const [help, flag] = await Promise.all([s2(["help"]), s2(["--help"])])
    expect(help.code).toBe(0)
    expect(help.stdout).toBe(flag.stdout)
    expect(help.stdout).toContain("USAGE\n  s2 [options] <command>")
    expect(help.stdout).toMatch(/\n {2}help +Show the help of s2/)
    expect(help.stderr).toBe("")
  })

  it("s2 help COMMAND is s2 COMMAND --help, nested too", async () => {
    const [help, flag, nested, nestedFlag] = await Promise.all([
      s2(["help", "search"]),
      s2(["search", "--help"]),
      s2(["help", "datasets", "links"]),
      s2(["datasets", "links", "--help"])
    ])
    expect(help.code).toBe(0)
    expect(help.stdout).toBe(flag.stdout)
    expect(help.stdout).toContain("s2 search [options] <query>")
    expect(nested.code).toBe(0)
    expect(nested.stdout).toBe(nestedFlag.stdout)
    expect(nested.stdout).toContain("s2 datasets links [options] <dataset>")
  })

  it("s2 help of an unknown command suggests the nearest, exit 2", async () => {
    const [top, nested, leaf] = await Promise.all([
      s2(["help", "serach"]),
      s2(["help", "datasets", "lnks"]),
      s2(["help", "search", "x"])
    ])
    expect(top.stderr).toBe("s2: unknown command \"serach\": did you mean `search`?\n")
    expect(top.stdout).toBe("")
    expect(top.code).toBe(2)
    expect(nested.stderr).toBe("s2: unknown command \"lnks\": did you mean `links`?\n")
    expect(nested.code).toBe(2)
    expect(leaf.stderr).toBe("s2: s2 search has no commands: run \"s2 search --help\"\n")
    expect(leaf.code).toBe(2)
  })

  it("s2 COMMAND --help of an unknown command suggests the nearest, exit 2, not the root's help", async () => {
    const [top, nested, argument] = await Promise.all([
      s2(["serach", "--help"]),
      s2(["datasets", "lnks", "-h"]),
      s2(["search", "graph", "--help"])
    ])
    expect(top.stderr).toBe("s2: unknown command \"serach\": did you mean `search`?\n")
    expect(top.stdout).toBe("")
    expect(top.code).toBe(2)
    expect(nested.stderr).toBe("s2: unknown command \"lnks\": did you mean `links`?\n")
    expect(nested.code).toBe(2)
    // The words after a command without subcommands are its arguments.
    expect(argument.stdout).toContain("s2 search [options] <query>")
    expect(argument.code).toBe(0)
  })

  it("s2 version and s2 --version print the package's version", async () => {
    const [command, flag] = await Promise.all([s2(["version"]), s2(["--version"])])
    expect(command.stdout).toBe(`${packageJson.version}\n`)
    expect(command.code).toBe(0)
    expect(flag.stdout).toBe(`${packageJson.version}\n`)
    expect(flag.code).toBe(0)
  })
})

describe("shell completions", () => {
  it("s2 --completions SHELL prints a script that knows the commands, help included", async () => {
    const [bash, zsh, fish, bad, powershell, help] = await Promise.all([
      s2(["--completions", "bash"]),
      s2(["--completions", "zsh"]),
      s2(["--completions", "fish"]),
      s2(["--completions", "tcsh"]),
      s2(["--completions", "pwsh"]),
      s2(["--help"])
    ])
    for (const ran of [bash, zsh, fish]) {
      expect(ran.code).toBe(0)
      expect(ran.stdout).toContain("harvest")
      expect(ran.stdout).toContain("help")
    }
    expect(bash.stdout).toContain("complete -F _s2 s2")
    expect(fish.stdout).toContain("complete -c s2")
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe(`s2: --completions "tcsh" is invalid: give one of bash, zsh, fish\n`)
    // Exactly the shells docs/cli.md tells how to install a script in (not the framework's others).
    expect(powershell.code).toBe(2)
    expect(help.stdout).toContain("\n  --completions bash|zsh|fish\n")
    const docs = fs.readFileSync(new URL("../../../docs/cli.md", import.meta.url), "utf8")
    expect(docs).toContain("`s2 --completions bash|zsh|fish` prints")
    expect([...docs.matchAll(/s2 --completions (\w+) >/g)].map((m) => m[1]).sort()).toEqual(["bash", "fish", "zsh"])
  })
})

describe("conflicting flags", () => {
  it("--emulator with --api-url is refused in one line, exit 2", async () => {
    const ran = await s2(["paper", "CorpusId:1", "--emulator", "--api-url", "http://127.0.0.1:9"])
    expect(ran.stderr).toBe(
      "s2: --emulator and --api-url exclude each other: give one (--emulator needs no API root)\n"
    )
    expect(ran.stdout).toBe("")
    expect(ran.code).toBe(2)
  })

  it("--emulator wins over S2_API_URL, a default of the environment", async () => {
    const ran = await s2(["autocomplete", "gra", "--emulator"], {
      S2_API_URL: "http://127.0.0.1:9",
      S2_EMULATOR_SIZE: "200"
    })
    expect(ran.stderr).toBe("")
    expect(ran.code).toBe(0)
  })

  it("--record with --replay is refused in one line, exit 2", async () => {
    const ran = await s2(["paper", "CorpusId:1", "--record", "a", "--replay", "b"])
    expect(ran.stderr).toBe("s2: --record and --replay exclude each other: give one\n")
    expect(ran.code).toBe(2)
  })
})

describe("NO_COLOR", () => {
  it("colours only a terminal, or where FORCE_COLOR asks; never under NO_COLOR", () => {
    expect(colors(true, {})).toBe(true)
    expect(colors(false, {})).toBe(false)
    expect(colors(true, { NO_COLOR: "1" })).toBe(false)
    // Set and empty is unset (no-color.org).
    expect(colors(true, { NO_COLOR: "" })).toBe(true)
    expect(colors(false, { FORCE_COLOR: "1" })).toBe(true)
    expect(colors(false, { FORCE_COLOR: "" })).toBe(true)
    expect(colors(true, { FORCE_COLOR: "0" })).toBe(false)
    expect(colors(true, { FORCE_COLOR: "false" })).toBe(false)
    expect(colors(true, { NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(false)
  })

  it("help has no escape under NO_COLOR, even with FORCE_COLOR", async () => {
    const [forced, none, piped] = await Promise.all([
      s2(["--help"], { FORCE_COLOR: "1" }),
      s2(["--help"], { FORCE_COLOR: "1", NO_COLOR: "1" }),
      s2(["help", "search"])
    ])
    // The forcing path works, so its absence below is NO_COLOR's doing.
    expect(forced.stdout).toContain(`${esc}[1mUSAGE${esc}[0m`)
    expect(none.stdout).not.toContain(esc)
    expect(none.stdout.replaceAll(/\x1b\[[01]m/g, "")).toBe(forced.stdout.replaceAll(/\x1b\[[01]m/g, ""))
    expect(piped.stdout).not.toContain(esc)
  })
})
