/**
 * What the platform offers for opening local files safely.
 */
import * as NodeFs from "node:fs"

/**
 * Whether `FileSystem.open` can refuse a symbolic link at the last component (`noFollow`, which is
 * `O_NOFOLLOW`: POSIX, not Windows, where the option fails every open).
 */
export const noFollow: boolean = process.platform !== "win32" && typeof NodeFs.constants.O_NOFOLLOW === "number" &&
  NodeFs.constants.O_NOFOLLOW !== 0
