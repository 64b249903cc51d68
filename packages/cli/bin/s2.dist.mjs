#!/usr/bin/env node
// The published `s2` (publishConfig.bin points here): runs the bundle in dist/bin
// (scripts/bundle.mjs) with plain Node, through V8's code cache. In the workspace, bin/s2.mjs runs
// the TypeScript sources through tsx instead.
import "../dist/bin/s2.js"
