#!/usr/bin/env node
// The published `s2-emulator` (publishConfig.bin points here): runs the compiled build with plain
// Node. In the workspace, bin/s2-emulator.mjs runs the TypeScript sources through tsx instead.
import "../dist/esm/bin.js"
