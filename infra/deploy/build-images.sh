#!/usr/bin/env bash
# Builds (and with --push, pushes) one image per service from infra/deploy/Dockerfile, each with its port from
# ./platform's PORT_TABLE. Needs a container engine that can pull the base image (docker or podman: ENGINE=podman).
#   infra/deploy/build-images.sh [--push]        REGISTRY=registry.example.com/lipa TAG=0.1.0-SNAPSHOT by default
#   infra/deploy/build-images.sh --print         prints the commands instead of running them
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../platform
source "$ROOT/platform"          # defines PORT[...] and SERVICES, runs nothing when sourced
ENGINE=${ENGINE:-docker}
REGISTRY=${REGISTRY:-registry.example.com/lipa}
TAG=${TAG:-0.1.0-SNAPSHOT}
mode=build
case ${1:-} in
  --push) mode=push ;;
  --print) mode=print ;;
  "") ;;
  *) echo "usage: $0 [--push|--print]" >&2; exit 2 ;;
esac
run() { if [[ $mode == print ]]; then printf '%q ' "$@"; printf '\n'; else "$@"; fi; }

if [[ $mode != print ]]; then
  for s in "${SERVICES[@]}"; do
    [[ -f $ROOT/$s/target/$s.jar ]] || { echo "building the jars first (./platform build) ..."; "$ROOT/platform" build; break; }
  done
fi
for s in "${SERVICES[@]}"; do
  image=$REGISTRY/lipa-$s:$TAG
  run "$ENGINE" build -f "$ROOT/infra/deploy/Dockerfile" --build-arg "SERVICE=$s" --build-arg "PORT=${PORT[$s]}" \
    --build-arg "MANAGEMENT_PORT=$(management_port "$s")" \
    -t "$image" "$ROOT"
  if [[ $mode == push ]]; then run "$ENGINE" push "$image"; fi
done
