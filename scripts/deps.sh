#!/usr/bin/env bash
# Installs what schedplan needs on a Debian machine that already has Go:
# COIN-OR CLP (the LP solver, through cgo) and pkg-config. Does nothing when
# they are there. Pass --browser to also install Chromium (for the report's
# end-to-end test).
set -euo pipefail
need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists clp 2>/dev/null || need+=(coinor-libclp-dev)
if [ "${1:-}" = "--browser" ]; then
	command -v chromium >/dev/null 2>&1 || need+=(chromium)
fi
if [ ${#need[@]} -gt 0 ]; then
	echo "installing: ${need[*]}" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
