/**
 * The MCP SDK's stdio client transport, but for the process: `s2 mcp` run in process (runS2), the
 * client's messages written to its standard input as they are sent and its standard output read
 * by the SDK's own framing (`ReadBuffer`).
 */
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import type { Ran } from "./bin.js"
import { runS2 } from "./inProcess.js"

/** A standard input the test writes to while s2 reads it: an async iterable, ended by `end`. */
const pipe = () => {
  const chunks: Array<Uint8Array> = []
  let ended = false
  let wake: (() => void) | undefined
  const poke = () => {
    const woken = wake
    wake = undefined
    woken?.()
  }
  const iterable: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      while (true) {
        const chunk = chunks.shift()
        if (chunk !== undefined) yield chunk
        else if (ended) return
        else await new Promise<void>((resolve) => (wake = resolve))
      }
    }
  }
  return {
    iterable,
    write: (text: string) => {
      chunks.push(new TextEncoder().encode(text))
      poke()
    },
    end: () => {
      ended = true
      poke()
    }
  }
}

/** A client transport to `s2 ARGS` in process; `exited` (once started) is the run's end. */
export const inProcessTransport = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>>): {
  readonly transport: Transport
  readonly stderr: () => string
  readonly exited: () => Promise<Pick<Ran, "code" | "signal">>
} => {
  const input = pipe()
  const output = new ReadBuffer()
  let stderr = ""
  let exited: Promise<Pick<Ran, "code" | "signal">> | undefined
  const transport: Transport = {
    start: async () => {
      exited = runS2(args, {
        stdin: input.iterable,
        env,
        onStderr: (text) => (stderr += text),
        onStdout: (text) => {
          output.append(Buffer.from(text))
          try {
            for (let message = output.readMessage(); message !== null; message = output.readMessage()) {
              transport.onmessage?.(message)
            }
          } catch (error) {
            transport.onerror?.(error as Error)
          }
        }
      }).then((ran) => {
        transport.onclose?.()
        return { code: ran.code, signal: ran.signal }
      })
    },
    send: async (message: JSONRPCMessage) => input.write(serializeMessage(message)),
    close: async () => {
      input.end()
      await exited
    }
  }
  return {
    transport,
    stderr: () => stderr,
    exited: () => exited ?? Promise.reject(new Error("the transport was not started"))
  }
}
