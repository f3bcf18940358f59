#!/usr/bin/env bash
# Builds the one image of every app (ADR 0053) from deploy/Dockerfile and tags it site-market/app:<git short SHA>, so
# a tag always names the commit it was built from. Prints the tag on the last line of stdout.
#   scripts/build-image.sh                      refuses a tree with uncommitted changes (the SHA would lie)
#   FORCE=1 scripts/build-image.sh              builds anyway, tagged <sha>-dirty
#   VITE_VALUATION_URL=https://... VITE_PREMIUM_DOMAINS_URL=https://... scripts/build-image.sh
#   IMAGE=registry.example.com/site-market/app scripts/build-image.sh    another repository name
#   CONTAINER_ENGINE=podman scripts/build-image.sh                      docker is used when both are installed
set -euo pipefail
cd "$(dirname "$0")/.."

image="${IMAGE:-site-market/app}"

engine="${CONTAINER_ENGINE:-}"
if [ -z "$engine" ]; then
  for candidate in docker podman; do
    if command -v "$candidate" >/dev/null 2>&1; then engine="$candidate"; break; fi
  done
fi
if [ -z "$engine" ] || ! command -v "$engine" >/dev/null 2>&1; then
  echo "No container engine found: install Docker (https://docs.docker.com/engine/install/) or Podman (apt-get install podman), or set CONTAINER_ENGINE." >&2
  exit 1
fi

if ! "$engine" info >/dev/null 2>&1; then
  echo "$engine is installed but does not answer (is its daemon or machine running? \`$engine info\` says why)." >&2
  exit 1
fi

if ! sha="$(git rev-parse --short HEAD 2>/dev/null)"; then
  echo "Not a git checkout: the image is tagged with the commit it is built from." >&2
  exit 1
fi
if [ -n "$(git status --porcelain)" ]; then
  if [ "${FORCE:-}" != "1" ]; then
    echo "The tree has uncommitted changes, so site-market/app:$sha would not be that commit: commit them, or FORCE=1 to build a -dirty tag." >&2
    exit 1
  fi
  sha="$sha-dirty"
fi
tag="$image:$sha"

# The web app's links are baked in when it is built (README: environment variables).
"$engine" build \
  --file deploy/Dockerfile \
  --build-arg "VITE_VALUATION_URL=${VITE_VALUATION_URL:-}" \
  --build-arg "VITE_PREMIUM_DOMAINS_URL=${VITE_PREMIUM_DOMAINS_URL:-}" \
  --label "org.opencontainers.image.revision=$(git rev-parse HEAD)" \
  --tag "$tag" \
  . >&2

echo "$tag"
