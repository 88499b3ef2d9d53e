#!/usr/bin/env bash
# Runs the tests of the example module examples/module-testing the way a user's CI would:
# builds the provider and the mock server, starts the mock on a free loopback port, exports
# the EVENTNOTIFY_* lines it prints, points the CLI at the local build through a temporary
# CLI configuration (dev_overrides), and runs `terraform test` (or `tofu test`:
# TERRAFORM=/path/to/tofu) in a copy of the module. Leaves nothing behind.
#
# `terraform test` needs Terraform 1.6, and the module's mock_provider tests need Terraform 1.7
# or OpenTofu 1.8: an older CLI fails here, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "module-test: $*" >&2; exit 1; }
command -v go >/dev/null || die "Go is required; it was not found on PATH"
TERRAFORM=${TERRAFORM:-$(command -v terraform || true)}
[ -n "$TERRAFORM" ] && [ -x "$TERRAFORM" ] || die "set TERRAFORM to a Terraform (1.7 or later) or OpenTofu (1.8 or later) binary"

cli_version=$(TF_CLI_CONFIG_FILE=/dev/null "$TERRAFORM" version | sed -n 1p)
case "$cli_version" in
  OpenTofu*) cli=tofu; minimum=1.8.0; provider_address=registry.opentofu.org/eventnotify/eventnotify ;;
  Terraform*) cli=terraform; minimum=1.7.0; provider_address=registry.terraform.io/eventnotify/eventnotify ;;
  *) die "$TERRAFORM is neither Terraform nor OpenTofu: its version is '$cli_version'" ;;
esac
version=${cli_version#* v}; version=${version%% *}
[ "$(printf '%s\n%s\n' "$minimum" "${version%%-*}" | sort -V | head -n1)" = "$minimum" ] ||
  die "$cli_version has no '$cli test' with mock_provider: the module's tests need $minimum or later"
echo "==> Module tests with $cli_version ($TERRAFORM)"

work=$(mktemp -d "${TMPDIR:-/tmp}/eventnotify-module-test.XXXXXX")
mock_pid=""
cleanup() {
  if [ -n "$mock_pid" ] && kill -0 "$mock_pid" 2>/dev/null; then
    kill -TERM "$mock_pid" 2>/dev/null || true
    wait "$mock_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

go build -o "$work/bin/terraform-provider-eventnotify" .
go build -o "$work/bin/eventnotify-mock" ./cmd/eventnotify-mock

"$work/bin/eventnotify-mock" -listen 127.0.0.1:0 >"$work/mock.env" 2>"$work/mock.err" &
mock_pid=$!
# The mock's first line, once it listens, is EVENTNOTIFY_BASE_URL=<url>; the credential lines follow.
for _ in $(seq 1 200); do
  grep -q '^EVENTNOTIFY_USERNAME=' "$work/mock.env" 2>/dev/null && break
  kill -0 "$mock_pid" 2>/dev/null || die "the mock server exited: $(cat "$work/mock.err")"
  sleep 0.05
done
grep -q '^EVENTNOTIFY_USERNAME=' "$work/mock.env" || die "the mock server did not start within 10 seconds"
sleep 0.1 # the password line follows the user name
while IFS='=' read -r key value; do
  case "$key" in EVENTNOTIFY_*) export "$key=$value" ;; esac
done <"$work/mock.env"
echo "    mock listening at $EVENTNOTIFY_BASE_URL (account $EVENTNOTIFY_ACCOUNT_ID)"

cat >"$work/cli.tfrc" <<RC
provider_installation {
  dev_overrides {
    "$provider_address" = "$work/bin"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/cli.tfrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
cp -R examples/module-testing "$work/module"
"$TERRAFORM" -chdir="$work/module" test -no-color
