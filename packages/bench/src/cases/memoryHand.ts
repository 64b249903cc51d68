/**
 * The floor under the memory case: the same harvest and the same slow consumer written by hand with
 * no library — `node:http` with a keep-alive agent, `JSON.parse`, follow the token. Whatever the
 * client's peak RSS is above this, the client costs.
 * argv: apiUrl records delayMsPerPage
 */
import * as Http from "node:http"
import { setTimeout as sleep } from "node:timers/promises"
import { report } from "./report.js"

const [apiUrl = "", records = "1000000", delay = "5"] = process.argv.slice(2)

const mb = (bytes: number) => bytes / 2 ** 20
let peak = 0
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss))
const timer = setInterval(sample, 20)

const agent = new Http.Agent({ keepAlive: true })
const get = (url: string) =>
  new Promise<string>((resolve, reject) => {
    Http.get(url, { agent }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
      response.on("error", reject)
    }).on("error", reject)
  })

const run = async () => {
  const baseline = mb(process.memoryUsage().rss)
  let peakAt100k = 0
  let seen = 0
  let token: string | null | undefined
  while (seen < Number(records) && token !== null) {
    const page: { token: string | null; data?: Array<unknown> } = JSON.parse(
      await get(
        `${apiUrl}/graph/v1/paper/search/bulk?query=&fields=title,year,authors,citationCount${
          token === undefined ? "" : `&token=${token}`
        }`
      )
    )
    seen += page.data?.length ?? 0
    token = page.token
    sample()
    if (seen <= 100_000) peakAt100k = peak
    await sleep(Number(delay))
  }
  clearInterval(timer)
  agent.destroy()
  return { records: seen, baselineMB: baseline, peakAt100kMB: mb(peakAt100k), peakMB: mb(peak) }
}

run().then(report)
