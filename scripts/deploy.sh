#!/usr/bin/env bash
# scripts/deploy.sh <dev|prod> [image tag] [--render]: deploys an overlay of k8s/ so that migrations run before any
# app rolls (ADR 0051):
#   1. renders the overlay with the image tag set (in a copy of k8s/, the checkout stays as it is);
#   2. applies everything that is neither an app nor a migration (namespace, config, identities, network policies,
#      disruption budgets, autoscalers, Services, the edge (Gateway and HTTPRoutes, or the Ingress); the dev overlay's NATS, PostgreSQL, Redis, S3, Mailpit)
#      and waits for the dev overlay's servers;
#   3. replaces the migration Jobs (one per service with a database) and waits until every one completed; one that
#      fails stops the deploy with its log, and the running apps are left untouched;
#   4. applies the apps and waits for their rollouts.
# --render prints step 1's manifests and stops (no cluster needed). KUBECTL="kubectl --context x" picks a cluster.
# The Secrets and the jwt-public-keys, bus-public-keys and nats-ca ConfigMaps must exist first: node
# scripts/k8s-secrets.mjs says how.
set -euo pipefail

usage() { echo "Usage: scripts/deploy.sh <dev|prod> [image tag] [--render]" >&2; exit 2; }
overlay="${1:-}"; shift || true
[[ "$overlay" == dev || "$overlay" == prod ]] || usage
render_only=false; tag=""
for arg in "$@"; do
  case "$arg" in
    --render) render_only=true ;;
    -*) usage ;;
    *) [[ -z "$tag" ]] || usage; tag="$arg" ;;
  esac
done
if [[ -z "$tag" ]]; then
  [[ "$overlay" == dev ]] || { echo "prod needs the image tag scripts/build-image.sh printed (the git commit)." >&2; exit 2; }
  tag=dev
fi
# A tag names one build: never a moving one, never the overlay's placeholder.
if [[ ! "$tag" =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$ || "$tag" == latest || "$tag" == set-by-deploy ]]; then
  echo "Not an image tag this deploy accepts: '$tag'" >&2; exit 2
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
kubectl=(${KUBECTL:-kubectl})
namespace=site-market
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. Render with the tag (what `kustomize edit set image` would write, without needing kustomize itself).
cp -R "$root/k8s" "$work/k8s"
kustomization="$work/k8s/overlays/$overlay/kustomization.yaml"
[[ "$(grep -cE '^ *newTag:' "$kustomization")" == 1 ]] || { echo "$kustomization must have exactly one newTag line" >&2; exit 1; }
sed -E "s|^( *newTag:).*|\1 \"$tag\"|" "$kustomization" > "$kustomization.new" && mv "$kustomization.new" "$kustomization"
"${kubectl[@]}" kustomize "$work/k8s/overlays/$overlay" > "$work/rendered.yaml"
if $render_only; then cat "$work/rendered.yaml"; exit 0; fi

echo "Deploying overlay $overlay, image tag $tag, to context $("${kubectl[@]}" config current-context)"
missing=()
# Secrets read key by key or mounted as a volume (the dev NATS's nats-tls; not the edge's certificate, which cert-manager makes),
# and the ConfigMaps made with them (public keys, the NATS CA every app trusts).
for name in $( (grep -A3 'secretKeyRef:' "$work/rendered.yaml" | awk '$1 == "name:" {print $2}'; awk '/^ *secret: *$/ {depth = index($0, "s"); inside = 1; next}
  inside { if (match($0, /[^ ]/) <= depth) inside = 0; else if ($1 == "secretName:") print $2 }' "$work/rendered.yaml") | sort -u); do
  "${kubectl[@]}" -n "$namespace" get secret "$name" -o name >/dev/null 2>&1 || missing+=("secret/$name")
done
for name in jwt-public-keys bus-public-keys nats-ca; do
  "${kubectl[@]}" -n "$namespace" get configmap "$name" -o name >/dev/null 2>&1 || missing+=("configmap/$name")
done
if ((${#missing[@]})); then
  echo "Missing in namespace $namespace: ${missing[*]}. node scripts/k8s-secrets.mjs makes them (docs/operations.md)." >&2
  exit 1
fi
# Custom resources the cluster must know before anything is applied (ADR 0076, ADR 0075): a half-applied edge (its
# NetworkPolicy already admitting the new proxies, its Gateway refused) would cut the site off.
for group in $(awk '$1 == "apiVersion:" && $2 ~ /\// {split($2, part, "/"); print part[1]}' "$work/rendered.yaml" | grep -E '^(gateway\.networking\.k8s\.io|monitoring\.coreos\.com)$' | sort -u); do
  if [[ -z "$("${kubectl[@]}" api-resources --api-group="$group" -o name 2>/dev/null)" ]]; then
    echo "The cluster has no $group resources: install their CRDs, or use the overlay's other component (docs/operations.md \"The edge\", \"Monitoring on Kubernetes\")." >&2
    exit 1
  fi
done

apply() { "${kubectl[@]}" apply -f "$work/rendered.yaml" --selector "$1"; }

# 2. Everything but the apps and the migrations; then the dev overlay's own servers must be up before migrating.
apply 'app.kubernetes.io/component notin (server,migration)'
for kind in statefulset deployment; do
  for name in $("${kubectl[@]}" -n "$namespace" get "$kind" -l app.kubernetes.io/component=infrastructure -o name); do
    "${kubectl[@]}" -n "$namespace" rollout status "$name" --timeout=10m
  done
done

# 3. Migrations: a Job's pod template cannot change, so last release's Jobs go first.
"${kubectl[@]}" -n "$namespace" delete job -l app.kubernetes.io/component=migration --ignore-not-found --wait=true
apply 'app.kubernetes.io/component=migration'
deadline=$((SECONDS + 900))
while :; do
  states="$("${kubectl[@]}" -n "$namespace" get job -l app.kubernetes.io/component=migration \
    -o jsonpath='{range .items[*]}{.metadata.name}{" "}{range .status.conditions[?(@.status=="True")]}{.type}{","}{end}{"\n"}{end}')"
  failed="$(awk '$2 ~ /(^|,)Failed,/ {print $1}' <<<"$states")"
  if [[ -n "$failed" ]]; then
    for job in $failed; do
      echo "Migration $job failed; the apps were not rolled. Its last lines:" >&2
      "${kubectl[@]}" -n "$namespace" logs "job/$job" --tail=40 >&2 || true
    done
    exit 1
  fi
  if [[ -n "$states" ]] && ! awk '$2 !~ /(^|,)Complete,/ {found=1} END {exit !found}' <<<"$states"; then break; fi
  ((SECONDS < deadline)) || { echo "Migrations still running after 15 minutes:" >&2; echo "$states" >&2; exit 1; }
  sleep 5
done
echo "Migrations complete."

# 4. The apps, then their rollouts.
apply 'app.kubernetes.io/component!=migration'
for name in $("${kubectl[@]}" -n "$namespace" get deployment -l app.kubernetes.io/component=server -o name); do
  "${kubectl[@]}" -n "$namespace" rollout status "$name" --timeout=10m
done
echo "Deployed $overlay at $tag."
