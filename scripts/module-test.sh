#!/usr/bin/env bash
# Runs the tests of the example module examples/module-testing the way a user's CI would:
# builds the provider and the mock server, starts the mock on a free loopback port, exports
# the EVENTNOTIFY_* lines it prints, points the CLI at the local build through a temporary
# CLI configuration (dev_overrides), and runs `terraform test` (or `tofu test`:
# TERRAFORM=/path/to/tofu) in a copy of the module. Leaves nothing behind.
#
# `terraform test` needs Terraform 1.6, the module's mock_provider tests need Terraform 1.7 or
# OpenTofu 1.8, and the module calls provider functions (Terraform 1.8, OpenTofu 1.7): an older
# CLI fails here, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "module-test: $*" >&2; exit 1; }
command -v go >/dev/null || die "Go is required; it was not found on PATH"
TERRAFORM=${TERRAFORM:-$(command -v terraform || true)}
[ -n "$TERRAFORM" ] && [ -x "$TERRAFORM" ] || die "set TERRAFORM to a Terraform (1.8 or later) or OpenTofu (1.8 or later) binary"

. scripts/lib/local-cli.sh
cli_detect
minimum=1.8.0
version=${cli_version#* v}; version=${version%% *}
[ "$(printf '%s\n%s\n' "$minimum" "${version%%-*}" | sort -V | head -n1)" = "$minimum" ] ||
  die "$cli_version lacks '$cli test' with mock_provider or provider functions: the module's tests need $minimum or later"
echo "==> Module tests with $cli_version ($TERRAFORM)"

work=$(mktemp -d "${TMPDIR:-/tmp}/eventnotify-module-test.XXXXXX")
cleanup() {
  local_stop
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# The account starts with the subscriptions of the module's seed file, as a user's account would.
local_start "$work" -seed examples/module-testing/tests/existing-subscriptions.json
cp -R examples/module-testing "$work/module"
# get installs the tests' helper module (tests/account); init would also ask the Registry for the
# provider, which dev_overrides stands for here. A user's CI runs init instead.
"$TERRAFORM" -chdir="$work/module" get -no-color >"$work/get.out" 2>&1 || { cat "$work/get.out" >&2; die "$cli get failed"; }
"$TERRAFORM" -chdir="$work/module" test -no-color

# The guide's end-to-end check (tests/deliveries.sh: apply, fire events at the mock, read its
# deliveries, destroy); then the account holds the seeded subscription alone again, as the test
# command destroys what each file created.
if command -v curl >/dev/null; then
  (cd "$work/module" && TERRAFORM="$TERRAFORM" tests/deliveries.sh) || die "tests/deliveries.sh failed with $cli"
  left=$(curl -fsS "$EVENTNOTIFY_BASE_URL/_mock/stats" | sed -n 's/.*"subscriptions":\([0-9]*\).*/\1/p')
  [ "$left" = 1 ] || die "after $cli test and tests/deliveries.sh the account holds ${left:-an unknown number of} subscriptions, want only the seeded one"
  echo "==> After $cli test and tests/deliveries.sh the account holds the seeded subscription alone"
else
  echo "==> curl is not on PATH: tests/deliveries.sh not run, and not checking what the tests left in the account"
fi
