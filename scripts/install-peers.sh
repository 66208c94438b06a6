#!/usr/bin/env bash
# Installs every external peer that foldagent's black-box tests talk to; the
# one install step their skip messages name (see internal/peer):
#   - Debian packages: tmux (the terminal test of examples/todo), Chromium
#     (the WebMCP tests of examples/todo-web), and Node.js with npm (the MCP
#     client tests, and the js/wasm tests that .ci/run runs under Node),
#     each only when missing;
#   - the npm packages pinned in each committed package-lock.json, installed
#     exactly as locked with npm ci (the official MCP TypeScript client,
#     Inspector CLI and conformance suite, and the official A2A JavaScript
#     client).
# Tests skip when a peer is missing, unless FOLDAGENT_REQUIRE_PEERS=1, which
# .ci/run sets after running this script. Installing Debian packages needs
# root (or sudo). Running it again changes nothing that is already in place.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(tmux chromium)
# The machine image may have Node.js from elsewhere; keep it if so.
command -v node >/dev/null 2>&1 || apt_packages+=(nodejs)
command -v npm >/dev/null 2>&1 || apt_packages+=(npm)
missing=()
for p in "${apt_packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	sudo=()
	if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
	echo "apt-get install ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	"${sudo[@]}" apt-get update -qq
	"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Every package-lock.json the repository commits (outside node_modules).
locks=$(git ls-files '*package-lock.json' | grep -v node_modules || true)
if [ -z "$locks" ]; then
	echo "install-peers: no committed package-lock.json found (is this a git checkout?)" >&2
	exit 1
fi
for lock in $locks; do
	dir=$(dirname "$lock")
	echo "npm ci in $dir"
	(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
done
