/**
 * `BENCH_ONLY=mcp`: how long `s2 mcp` (the bundle `npm i -g` installs, `--emulator`) takes to answer
 * a line over its 4 MiB limit, which it drops as it streams and only scans for the request's id
 * (src/commands/mcpFraming.ts). Plain text is the baseline; a string of backslashes was quadratic
 * within each 64 KiB read before the scanner kept the next quote's position (4 MiB: 19 s; 48 MB, the
 * reviewer's line: about 4 minutes during which nothing else was answered). The time is from the
 * first byte written to the answer read, after a first refused line has shown the server is up. And the
 * size of its `tools/list` answer, in full and for two profiles (issue 47, point 6).
 */
import { spawn } from "node:child_process"
import * as Os from "node:os"
import * as Readline from "node:readline"

export interface McpTools {
  readonly runs: number
  readonly s2: string
  readonly fmt: (n: number, digits?: number) => string
}

const MiB = 1024 * 1024

/** The lines timed: each a ping whose `params` string is `body`, its id after it. */
const shapes: ReadonlyArray<readonly [string, string]> = [
  ["4 MiB of plain text", "a".repeat(4 * MiB)],
  ["4 MiB of escaped backslashes (`\\\\` × 2 Mi)", "\\\\".repeat(2 * MiB)],
  ["48 MiB of plain text", "a".repeat(48 * MiB)],
  ["48 MiB of escaped backslashes", "\\\\".repeat(24 * MiB)]
]

/**
 * `s2 mcp --emulator` (with `args`) as a child, with a way to wait for the answer to an id: how long
 * it took and its line.
 */
const startMcp = (s2: string, args: ReadonlyArray<string> = []) => {
  const child = spawn(process.execPath, [s2, "mcp", "--emulator", ...args], {
    env: { ...process.env, S2_EMULATOR_SIZE: "1000" },
    stdio: ["pipe", "pipe", "ignore"]
  })
  const waiting = new Map<string, (line: string) => void>()
  Readline.createInterface({ input: child.stdout }).on("line", (line) => {
    const id = String((JSON.parse(line) as { id?: unknown }).id)
    waiting.get(id)?.(line)
    waiting.delete(id)
  })
  const deadline = 600_000
  const answer = (id: string, line: string) =>
    new Promise<{ readonly ms: number; readonly line: string }>((resolve, reject) => {
      const started = performance.now()
      const timer = setTimeout(() => reject(new Error(`s2 mcp did not answer ${id} within 10 minutes`)), deadline)
      waiting.set(id, (answered) => {
        clearTimeout(timer)
        resolve({ ms: performance.now() - started, line: answered })
      })
      child.stdin.write(`${line}\n`)
    })
  const answerTo = (id: string, line: string) => answer(id, line).then(({ ms }) => ms)
  const write = (line: string) => void child.stdin.write(`${line}\n`)
  return { answer, answerTo, write, stop: () => child.kill() }
}

/** The profiles whose `tools/list` is measured (issue 47, point 6): the default lists every tool. */
const profiles: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["every tool (the default)", []],
  ["`--tools search,verify`", ["--tools", "search,verify"]],
  ["`--tools search`", ["--tools", "search"]]
]

/** The `tools/list` answer of `s2 mcp --emulator` with `args`, after the handshake: its tools and bytes. */
const toolsList = async (s2: string, args: ReadonlyArray<string>) => {
  const mcp = startMcp(s2, args)
  try {
    await mcp.answer(
      "init",
      JSON.stringify({
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } }
      })
    )
    mcp.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))
    const { line } = await mcp.answer("list", JSON.stringify({ jsonrpc: "2.0", id: "list", method: "tools/list" }))
    const tools = (JSON.parse(line) as { result: { tools: ReadonlyArray<unknown> } }).result.tools
    return { tools: tools.length, bytes: Buffer.byteLength(line) }
  } finally {
    mcp.stop()
  }
}

const request = (id: string, body: string) =>
  `{"jsonrpc":"2.0","method":"ping","params":{"s":"${body}"},"id":${JSON.stringify(id)}}`

/** The section of RESULTS.md: heading, how it was run, the rows. */
export const mcpSection = async (tools: McpTools): Promise<Array<string>> => {
  const load = Os.loadavg()[0] ?? 0
  const mcp = startMcp(tools.s2)
  const rows: Array<string> = []
  try {
    await mcp.answerTo("ready", "{\"jsonrpc\":\"2.0\",\"id\":\"ready\"}")
    for (const [what, body] of shapes) {
      const times: Array<number> = []
      for (let run = 0; run < tools.runs; run++) {
        const id = `${what}, run ${run}`
        times.push(await mcp.answerTo(id, request(id, body)))
      }
      const sorted = times.sort((x, y) => x - y)
      const ms = (n: number | undefined) => tools.fmt(n ?? 0, 0)
      rows.push(`| ${what} | ${ms(sorted[Math.floor(sorted.length / 2)])} | ${ms(sorted[0])} | ${ms(sorted.at(-1))} |`)
    }
  } finally {
    mcp.stop()
  }
  const lists: Array<string> = []
  for (const [what, args] of profiles) {
    const { bytes, tools: count } = await toolsList(tools.s2, args)
    lists.push(`| ${what} | ${count} | ${tools.fmt(bytes, 0)} |`)
  }
  return [
    "## s2 mcp: a line over the limit (issue 36, point 13)",
    "",
    `\`BENCH_ONLY=mcp pnpm bench\` (packages/bench/src/mcp.ts) on ${
      new Date().toISOString().slice(0, 10)
    }, ${tools.runs} lines of each (load average ${tools.fmt(load)} to ${
      tools.fmt(Os.loadavg()[0] ?? 0)
    } on ${Os.cpus().length} cores): one \`s2 mcp --emulator\` process, each line a`,
    "ping with one long string and its id after it, refused with -32600 for that id; from the first byte written to the answer.",
    "",
    "| line over the 4 MiB limit | median (ms) | min | max |",
    "|---|---|---|---|",
    ...rows,
    "",
    "The `tools/list` answer of `s2 mcp --emulator`, a server for each row: one JSON-RPC line after the `initialize`",
    "handshake (issue 47, point 6: at most 10 KB; a test checks ≤ 10 KiB):",
    "",
    "| `s2 mcp --emulator` | tools | bytes |",
    "|---|---|---|",
    ...lists
  ]
}
