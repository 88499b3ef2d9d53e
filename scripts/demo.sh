#!/usr/bin/env bash
# The quick start: builds the provider and the mock server, starts the mock on a
# free loopback port, points Terraform (or OpenTofu: TERRAFORM=/path/to/tofu) at
# the local build through a temporary CLI configuration (dev_overrides), applies
# examples/quickstart, shows that a second plan has no changes, destroys, and
# stops the mock. Leaves nothing behind.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "demo: $*" >&2; exit 1; }
command -v go >/dev/null || die "Go is required (https://go.dev/dl/); it was not found on PATH"
TERRAFORM=${TERRAFORM:-$(command -v terraform || true)}
[ -n "$TERRAFORM" ] && [ -x "$TERRAFORM" ] || die "Terraform is required: install it, or run 'make demo', which builds Terraform v1.5.7 when none is on PATH (TF=tofu make demo: OpenTofu v1.12.6)"

. scripts/lib/local-cli.sh
cli_detect
echo "==> Using $cli_version ($TERRAFORM)"

work=$(mktemp -d "${TMPDIR:-/tmp}/eventnotify-demo.XXXXXX")
cleanup() {
  local_stop
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

echo "==> Building the provider and the mock server, starting the mock on a free loopback port"
local_start "$work"
cp -R examples/quickstart "$work/quickstart"
tf() { "$TERRAFORM" -chdir="$work/quickstart" "$@"; }

echo "==> $cli apply"
tf apply -auto-approve -input=false
echo "==> $cli plan (a second plan must show no changes)"
set +e
tf plan -detailed-exitcode -input=false
code=$?
set -e
[ "$code" -eq 0 ] || die "the second plan was not empty (exit code $code)"
echo "==> $cli destroy"
tf destroy -auto-approve -input=false
echo "==> Done: the mock server stops and the temporary files are removed"
