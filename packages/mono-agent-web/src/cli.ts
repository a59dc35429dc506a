#!/usr/bin/env node
// The CLI from its sources, as tests and development run it (with tsx). The published bin is
// dist/bin/cli.cjs, which answers --help and --version and requires the bundle built from cli-main.ts.
import './cli-main.js';
