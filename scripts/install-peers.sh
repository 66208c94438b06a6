#!/usr/bin/env bash
# Installs the external peers that foldagent's black-box tests talk to:
# Debian packages (tmux for terminal tests, Chromium for WebMCP tests) and
# the npm packages pinned in the repository (MCP clients, the conformance
# suite, the WebMCP polyfill). Tests skip when a peer is missing, unless
# FOLDAGENT_REQUIRE_PEERS=1, which .ci/run sets after running this script.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(tmux chromium)
# Node.js runs the MCP clients and the js/wasm tests; the machine image
# usually has it already.
command -v node >/dev/null 2>&1 || apt_packages+=(nodejs)
command -v npm >/dev/null 2>&1 || apt_packages+=(npm)
missing=()
for p in "${apt_packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Every package-lock.json the repository pins (outside node_modules) is
# installed exactly as locked.
while IFS= read -r lock; do
	dir=$(dirname "$lock")
	echo "npm ci in $dir"
	(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
done < <(git ls-files '*package-lock.json' | grep -v node_modules || true)
