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

# The account starts with the subscriptions of the module's seed file, as a user's account would.
"$work/bin/eventnotify-mock" -listen 127.0.0.1:0 -seed examples/module-testing/tests/existing-subscriptions.json \
  >"$work/mock.env" 2>"$work/mock.err" &
mock_pid=$!
# The mock writes its KEY=VALUE lines in one write once it listens; the first is EVENTNOTIFY_BASE_URL.
for _ in $(seq 1 200); do
  grep -q '^EVENTNOTIFY_BASE_URL=' "$work/mock.env" 2>/dev/null && break
  kill -0 "$mock_pid" 2>/dev/null || die "the mock server exited: $(cat "$work/mock.err")"
  sleep 0.05
done
grep -q '^EVENTNOTIFY_BASE_URL=' "$work/mock.env" || die "the mock server did not start within 10 seconds"
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
# get installs the tests' helper module (tests/account); init would also ask the Registry for the
# provider, which dev_overrides stands for here. A user's CI runs init instead.
"$TERRAFORM" -chdir="$work/module" get -no-color >"$work/get.out" 2>&1 || { cat "$work/get.out" >&2; die "$cli get failed"; }
"$TERRAFORM" -chdir="$work/module" test -no-color

# The test command destroys what each file created: the account holds the seeded subscription
# alone again.
if command -v curl >/dev/null; then
  left=$(curl -fsS "$EVENTNOTIFY_BASE_URL/_mock/stats" | sed -n 's/.*"subscriptions":\([0-9]*\).*/\1/p')
  [ "$left" = 1 ] || die "after $cli test the account holds ${left:-an unknown number of} subscriptions, want only the seeded one"
  echo "==> After $cli test the account holds the seeded subscription alone"
else
  echo "==> curl is not on PATH: not checking what the tests left in the account"
fi
