#!/usr/bin/env bash
# Builds the image and runs compose.yaml (PostgreSQL and two replicas), then checks what an operator
# relies on: both replicas ready on one schema, anonymous callers refused, a task written through one
# replica read through the other with an admin token, and a clean stop. Needs a container engine
# (docker with compose); .ci/run calls it only where `docker info` answers.
set -euo pipefail
cd "$(dirname "$0")/.."
project="cairn-ci-$$"
dc() { docker compose -p "$project" "$@"; }
trap 'dc down -v --remove-orphans >/dev/null 2>&1 || true' EXIT
dc up -d --build --wait
for port in 7421 7422; do
  for _ in $(seq 60); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 1; done
  curl -fsS "http://127.0.0.1:$port/readyz" | grep -q '"engine":"postgres"'
done
# Beyond loopback, nobody is served without a token.
test "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:7421/api/v1/projects)" = 401
token=$(dc exec -T cairn-a node bin/cairn.js token create --name ci --scope admin --json | node -e 'let s="";process.stdin.on("data",(d)=>s+=d).on("end",()=>console.log(JSON.parse(s).secret))')
auth=(-H "authorization: Bearer $token" -H 'content-type: application/json')
curl -fsS "${auth[@]}" -d '{"key":"OPS","name":"Ops"}' http://127.0.0.1:7421/api/v1/projects >/dev/null
curl -fsS "${auth[@]}" -d '{"project":"OPS","title":"From replica a"}' http://127.0.0.1:7421/api/v1/tasks >/dev/null
curl -fsS "${auth[@]}" http://127.0.0.1:7422/api/v1/tasks/OPS-1 | grep -q 'From replica a'
echo "containers: both replicas ready on PostgreSQL; a write on one is read on the other" >&2
