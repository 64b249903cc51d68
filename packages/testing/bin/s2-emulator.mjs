#!/usr/bin/env node
// Loads the TypeScript sources through tsx (no build step yet).
import { register } from "tsx/esm/api"

register()
await import("../src/bin.ts")
