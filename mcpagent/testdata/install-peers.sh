#!/bin/sh
# Installs the pinned Node MCP peers used by mcpagent's black-box tests
# (peers_test.go): @modelcontextprotocol/sdk (TypeScript client),
# @modelcontextprotocol/inspector-cli (Inspector CLI) and
# @modelcontextprotocol/conformance (server scenarios). Versions are pinned
# in node/package.json and node/package-lock.json; node_modules is
# git-ignored. Needs Node >= 20 and npm.
set -eu
cd "$(dirname "$0")/node"
npm ci --no-audit --no-fund
