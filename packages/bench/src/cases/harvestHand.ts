/**
 * The baseline: the fastest loop a user could write by hand over the same pages — undici `fetch`
 * (Node's global fetch), `JSON.parse`, write JSON lines, follow the token.
 * argv: apiUrl records outFile fields
 */
import { once } from "node:events"
import * as Fs from "node:fs"
import { cpuMs, report } from "./report.js"

const [apiUrl = "", records = "0", out = "", fields = "title"] = process.argv.slice(2)

const run = async () => {
  const started = performance.now()
  const cpu = process.cpuUsage()
  const file = Fs.createWriteStream(out)
  let token: string | null | undefined
  let left = Number(records)
  while (left > 0 && token !== null) {
    const url = `${apiUrl}/graph/v1/paper/search/bulk?query=&fields=${fields}${
      token === undefined ? "" : `&token=${token}`
    }`
    const response = await fetch(url)
    const page: { token: string | null; data?: Array<unknown> } = JSON.parse(await response.text())
    const data = (page.data ?? []).slice(0, left)
    left -= data.length
    token = page.token
    if (!file.write(data.map((r) => JSON.stringify(r)).join("\n") + "\n")) await once(file, "drain")
  }
  file.end()
  await once(file, "finish")
  return { records: Number(records) - left, ms: performance.now() - started, cpuMs: cpuMs(process.cpuUsage(cpu)) }
}

run().then(report)
