// A registry for the `@s2-effect` scope only, serving the packed tarballs over HTTP on 127.0.0.1:
// with `@s2-effect:registry` pointed at it, the documented `npm install @s2-effect/…` and
// `pnpm add @s2-effect/…` lines run as written before the packages are published, while every
// other package (effect, @effect/platform-node, typescript, …) still comes from the real registry.
import { execFileSync } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import * as path from "node:path"

/** The package.json inside a tarball (as packed: publishConfig applied, `workspace:` rewritten). */
const manifestOf = (tgz) => JSON.parse(execFileSync("tar", ["-xzOf", tgz, "package/package.json"], { encoding: "utf8" }))

/**
 * Starts the registry. @param {ReadonlyArray<string>} tarballs
 * @returns {Promise<{ url: string, requested: Array<string>, close: () => Promise<void> }>}
 */
export const startRegistry = async (tarballs) => {
  const packages = new Map()
  for (const tgz of tarballs) {
    const manifest = manifestOf(tgz)
    const bytes = fs.readFileSync(tgz)
    packages.set(manifest.name, { manifest, bytes, file: path.basename(tgz) })
  }
  const requested = []
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://registry")
    const pathname = decodeURIComponent(url.pathname)
    requested.push(pathname)
    const tarball = /^\/(@s2-effect\/[^/]+)\/-\/(.+\.tgz)$/.exec(pathname)
    const entry = packages.get(tarball ? tarball[1] : pathname.slice(1))
    if (entry === undefined || (tarball && tarball[2] !== entry.file)) {
      res.writeHead(404, { "content-type": "application/json" })
      res.end(JSON.stringify({ error: "not found" }))
      return
    }
    if (tarball) {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": entry.bytes.length })
      res.end(entry.bytes)
      return
    }
    const { manifest } = entry
    const base = `http://${req.headers.host}`
    const version = {
      ...manifest,
      _id: `${manifest.name}@${manifest.version}`,
      dist: {
        tarball: `${base}/${manifest.name}/-/${entry.file}`,
        shasum: crypto.createHash("sha1").update(entry.bytes).digest("hex"),
        integrity: `sha512-${crypto.createHash("sha512").update(entry.bytes).digest("base64")}`
      }
    }
    res.writeHead(200, { "content-type": "application/json" })
    res.end(JSON.stringify({
      _id: manifest.name,
      name: manifest.name,
      "dist-tags": { latest: manifest.version },
      versions: { [manifest.version]: version },
      time: { [manifest.version]: new Date().toISOString() }
    }))
  })
  await new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", resolve)
  })
  const address = server.address()
  return {
    url: `http://127.0.0.1:${address.port}/`,
    requested,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
