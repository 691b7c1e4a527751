#!/bin/sh
# Installs the pinned Azurite (package-lock.json) into ./node_modules with the machine's npm.
# Called by the Maven build (exec-maven-plugin, testkit's generate-resources phase).
#
# `npm ci` wipes and reinstalls node_modules every time (about 15-30 s, 360 MB), so it runs only
# when node_modules was not installed from exactly this lock file: after a successful install the
# lock file is copied to node_modules/.omnigraph-installed-lock and compared on the next build.
# Azurite 3.37.0 declares engines.node >= 22; on Node 20 npm prints EBADENGINE and installs it
# anyway; the blob service works on Node 20 (verified by the test kit's own tests).
set -eu
cd "$(dirname "$0")"
stamp=node_modules/.omnigraph-installed-lock
if [ -x node_modules/.bin/azurite-blob ] && cmp -s package-lock.json "$stamp"; then
  echo "azurite: node_modules is up to date with package-lock.json"
  exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "azurite: npm not found on PATH (Node.js 20+ with npm is needed for the Azure tests)" >&2; exit 1; }
npm ci --no-audit --no-fund --prefer-offline
cp package-lock.json "$stamp"
