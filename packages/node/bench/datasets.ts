/**
 * Benchmark of dataset downloads and reads (not a unit test). Run from the repository root:
 *
 *   npx tsx packages/node/bench/datasets.ts [megabytes=200]
 *
 * Generates a gzipped JSON-lines file of about that many megabytes under the OS temp directory
 * (kept between runs, never committed), serves it from a local node:http server with Range
 * support, and measures:
 * - download: `NodeDatasets.downloadFile` over undici to disk, MB/s;
 * - read: `NodeDatasets.readDatasetFile` (gunzip, split, JSON.parse), compressed and
 *   uncompressed MB/s and records/s;
 * - a plain-Node baseline read (createReadStream → createGunzip → readline → JSON.parse);
 * - peak RSS of the process during each phase, sampled every 20 ms.
 * The figures are printed and written to packages/node/bench/RESULTS-datasets.md.
 */
import { Effect, Stream } from "effect"
import * as ChildProcess from "node:child_process"
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Http from "node:http"
import * as Os from "node:os"
import * as NodePath from "node:path"
import * as Readline from "node:readline"
import { pipeline } from "node:stream/promises"
import * as Zlib from "node:zlib"
import { NodeDatasets } from "../src/index.js"

const targetMb = Number(process.argv[2] ?? 200)
const dir = NodePath.join(Os.tmpdir(), "s2-effect-bench")
const source = NodePath.join(dir, `papers-${targetMb}mb.jsonl.gz`)
const MB = 1024 * 1024

/** A vocabulary of 5,000 random words: text that compresses roughly like real abstracts. */
const words = Array.from(
  { length: 5000 },
  (_, i) => Crypto.createHash("sha1").update(String(i)).digest("base64url").slice(0, 3 + (i % 8))
)

/** Records shaped like the papers dataset, compressing about 3:1 as the real files do. */
const generate = async (): Promise<{ readonly records: number; readonly raw: number }> => {
  Fs.mkdirSync(dir, { recursive: true })
  const meta = `${source}.meta.json`
  if (Fs.existsSync(source) && Fs.existsSync(meta)) {
    const known: unknown = JSON.parse(Fs.readFileSync(meta, "utf8"))
    if (typeof known === "object" && known !== null && "records" in known && "raw" in known) {
      return { records: Number(known.records), raw: Number(known.raw) }
    }
  }
  let records = 0
  let raw = 0
  const gzip = Zlib.createGzip({ level: 6 })
  const out = Fs.createWriteStream(`${source}.tmp`)
  const done = pipeline(gzip, out)
  // xorshift32: deterministic, so every run of the benchmark reads the same file.
  let seed = 2_463_534_242
  const random = () => {
    seed ^= seed << 13
    seed >>>= 0
    seed ^= seed >>> 17
    seed ^= seed << 5
    seed >>>= 0
    return seed / 2 ** 32
  }
  const pick = () => words[Math.floor(random() * words.length)]!
  while (out.bytesWritten < targetMb * MB) {
    const lines: Array<string> = []
    for (let i = 0; i < 2000; i++) {
      records++
      lines.push(JSON.stringify({
        corpusid: records,
        externalids: { DOI: `10.${Math.floor(random() * 9999)}/${Crypto.randomBytes(6).toString("hex")}` },
        url: `https://www.semanticscholar.org/paper/${Crypto.randomBytes(20).toString("hex")}`,
        title: Array.from({ length: 8 }, pick).join(" "),
        authors: Array.from({ length: 3 }, () => ({ authorId: String(Math.floor(random() * 1e9)), name: pick() })),
        year: 1990 + Math.floor(random() * 35),
        citationcount: Math.floor(random() * 1000),
        abstract: Array.from({ length: 120 }, pick).join(" ")
      }))
    }
    const chunk = lines.join("\n") + "\n"
    raw += Buffer.byteLength(chunk)
    if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once("drain", resolve))
  }
  gzip.end()
  await done
  Fs.renameSync(`${source}.tmp`, source)
  Fs.writeFileSync(meta, JSON.stringify({ records, raw }))
  return { records, raw }
}

/** Serves the file with Range support, like an object store. */
const serve = (): Promise<Http.Server> =>
  new Promise((resolve) => {
    const server = Http.createServer((req, res) => {
      const size = Fs.statSync(source).size
      const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "")
      const start = range === null ? 0 : Number(range[1])
      res.writeHead(range === null ? 200 : 206, {
        "content-type": "application/octet-stream",
        "content-length": String(size - start),
        ...(range === null ? {} : { "content-range": `bytes ${start}-${size - 1}/${size}` })
      })
      Fs.createReadStream(source, { start }).pipe(res)
    })
    server.listen(0, "127.0.0.1", () => resolve(server))
  })

/** Peak RSS while `run` runs. */
const measure = async <A>(run: () => Promise<A>) => {
  global.gc?.()
  let peak = process.memoryUsage().rss
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 20)
  const start = performance.now()
  const value = await run()
  const seconds = (performance.now() - start) / 1000
  clearInterval(timer)
  peak = Math.max(peak, process.memoryUsage().rss)
  return { value, seconds, peakMb: peak / MB }
}

const main = async () => {
  if (process.argv[3] === "--generate") {
    await generate()
    return
  }
  if (process.argv[3] === "--read") {
    const read = await measure(() =>
      NodeDatasets.readDatasetFile(process.argv[4]!).pipe(
        Stream.runCount,
        Effect.provide(NodeDatasets.layer),
        Effect.runPromise
      )
    )
    console.log(JSON.stringify({ records: read.value, seconds: read.seconds, peakMb: read.peakMb }))
    return
  }
  // Generated in a child process, so that its buffers do not count in this process's RSS.
  const started = performance.now()
  await new Promise<void>((resolve, reject) => {
    ChildProcess.spawn(process.execPath, [...process.execArgv, process.argv[1]!, String(targetMb), "--generate"], {
      stdio: "inherit"
    }).on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`generator exited with ${code}`))))
  })
  const generated = { value: await generate(), seconds: (performance.now() - started) / 1000 }
  const { raw, records } = generated.value
  const size = Fs.statSync(source).size
  console.log(
    `file: ${(size / MB).toFixed(1)} MB gzipped, ${(raw / MB).toFixed(1)} MB of JSON lines, ${records} records (${
      generated.seconds.toFixed(1)
    } s to generate or reuse)`
  )
  const server = await serve()
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const url = `http://127.0.0.1:${port}/files/papers.jsonl.gz?X-Amz-Signature=bench`
  const directory = Fs.mkdtempSync(NodePath.join(dir, "download-"))
  const baselineRss = process.memoryUsage().rss / MB

  const download = await measure(() =>
    NodeDatasets.downloadFile(url, { directory }).pipe(
      Stream.runCount,
      Effect.provide(NodeDatasets.layer),
      Effect.runPromise
    )
  )
  const downloaded = NodePath.join(directory, "papers.jsonl.gz")
  const sha256 = (path: string) => Crypto.createHash("sha256").update(Fs.readFileSync(path)).digest("hex")
  const identical = sha256(downloaded) === sha256(source)
  console.log(
    `download: ${(size / MB / download.seconds).toFixed(1)} MB/s (${
      download.seconds.toFixed(2)
    } s, ${download.value} events), peak RSS ${download.peakMb.toFixed(0)} MB, bytes identical (sha256): ${identical}`
  )
  server.close()

  const read = await measure(() =>
    NodeDatasets.readDatasetFile(downloaded).pipe(
      Stream.runCount,
      Effect.provide(NodeDatasets.layer),
      Effect.runPromise
    )
  )
  console.log(
    `read: ${(size / MB / read.seconds).toFixed(1)} MB/s gzipped, ${(raw / MB / read.seconds).toFixed(1)} MB/s JSON, ${
      Math.round(read.value / read.seconds)
    } records/s (${read.seconds.toFixed(2)} s, ${read.value} records), peak RSS ${read.peakMb.toFixed(0)} MB`
  )

  const baseline = await measure(async () => {
    let n = 0
    const lines = Readline.createInterface({ input: Fs.createReadStream(downloaded).pipe(Zlib.createGunzip()) })
    for await (const line of lines) {
      if (line.length > 0) {
        JSON.parse(line)
        n++
      }
    }
    return n
  })
  console.log(
    `baseline read (plain Node readline): ${(size / MB / baseline.seconds).toFixed(1)} MB/s gzipped, ${
      Math.round(baseline.value / baseline.seconds)
    } records/s, peak RSS ${baseline.peakMb.toFixed(0)} MB`
  )
  // The same read with the JS heap capped at 64 MB: it can only finish if memory stays bounded.
  const capped = await new Promise<{ records: number; seconds: number; peakMb: number }>((resolve, reject) => {
    let out = ""
    ChildProcess.spawn(process.execPath, [
      "--max-old-space-size=64",
      ...process.execArgv,
      process.argv[1]!,
      String(targetMb),
      "--read",
      downloaded
    ], { stdio: ["ignore", "pipe", "inherit"] })
      .on(
        "exit",
        (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`capped read exited with ${code}`)))
      )
      .stdout.on("data", (d: Buffer) => (out += d.toString()))
  })
  console.log(
    `read with the heap capped at 64 MB: ${capped.records} records in ${capped.seconds.toFixed(2)} s, peak RSS ${
      capped.peakMb.toFixed(0)
    } MB`
  )
  Fs.rmSync(directory, { recursive: true, force: true })

  const results = `# Datasets benchmark

Generated by \`npx tsx packages/node/bench/datasets.ts ${targetMb}\` on ${new Date().toISOString().slice(0, 10)}
(Node ${process.version}, ${Os.cpus()[0]?.model ?? "unknown CPU"} × ${Os.cpus().length}, ${Os.platform()}).
The file is served from a local node:http server on 127.0.0.1, so the download figure measures
the client and the disk, not a network.

| | |
|---|---|
| file | ${(size / MB).toFixed(1)} MB gzipped, ${(raw / MB).toFixed(1)} MB of JSON lines, ${records} records |
| download (\`downloadFile\`, undici → disk) | ${(size / MB / download.seconds).toFixed(1)} MB/s, ${
    download.seconds.toFixed(2)
  } s, bytes identical to the source (sha256): ${identical} |
| read (\`readDatasetFile\`: gunzip + split + JSON.parse) | ${(size / MB / read.seconds).toFixed(1)} MB/s gzipped, ${
    (raw / MB / read.seconds).toFixed(1)
  } MB/s JSON, ${Math.round(read.value / read.seconds)} records/s |
| baseline read (createGunzip + readline + JSON.parse) | ${(size / MB / baseline.seconds).toFixed(1)} MB/s gzipped, ${
    Math.round(baseline.value / baseline.seconds)
  } records/s |
| RSS before the download | ${baselineRss.toFixed(0)} MB |
| peak RSS, download | ${download.peakMb.toFixed(0)} MB |
| peak RSS, read | ${read.peakMb.toFixed(0)} MB |
| peak RSS, baseline read | ${baseline.peakMb.toFixed(0)} MB |
| read in a child process with \`--max-old-space-size=64\` | all ${capped.records} records in ${
    capped.seconds.toFixed(2)
  } s, peak RSS ${capped.peakMb.toFixed(0)} MB |

Without a cap V8 lets the heap grow before collecting, so the uncapped peaks say more about the
garbage collector than about the reader; the capped run shows the reader's live memory is bounded
(it would fail with an out-of-memory error if records or chunks were retained). The capped run is
slower because the collector runs constantly.
`
  Fs.writeFileSync(new URL("./RESULTS-datasets.md", import.meta.url), results)
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
