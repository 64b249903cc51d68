#!/usr/bin/env node
// Development entry: runs the TypeScript sources through tsx (a build step will replace this).
import { register } from "tsx/esm/api"

register()
await import("../src/main.ts")
