#!/usr/bin/env bash
# The acceptance tests against a service in another process, as `make testacc-live` runs them against
# a real one: the mock server is started on a free loopback port with latency, an account that already
# holds other teams' subscriptions and a subscription another run left (tfacc-), and only the
# EVENTNOTIFY_* variables it prints name it. Two live runs go at once on that one account; each must
# pass, print its tests' outcomes by name, and leave the account as it found it. Then `make sweep`
# with EVENTNOTIFY_SWEEP_MIN_AGE=0s must delete the leftover and nothing else. Last, one live run against
# the mock serving a profile of answers unlike its defaults.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "live-test: $*" >&2; exit 1; }
command -v go >/dev/null || die "Go is required; it was not found on PATH"
command -v curl >/dev/null || die "curl is required (it reads the mock's /_mock/stats)"
TERRAFORM=${TERRAFORM:-$(command -v terraform || true)}
[ -n "$TERRAFORM" ] && [ -x "$TERRAFORM" ] || die "set TERRAFORM to a Terraform or OpenTofu binary"

. scripts/lib/local-cli.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/eventnotify-live-test.XXXXXX")
cleanup() {
  local_stop
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# The account as the runs find it: two other teams' subscriptions and one a failed run left.
cat >"$work/seed.json" <<'JSON'
{"subscriptions": [
  {"eventName": "ATOM.STATUS", "destinationType": "EVENT_STREAMS", "logLevel": "ERROR", "eventStreamsTopic": "payments-alerts"},
  {"eventName": "PROCESS.EXECUTION", "destinationType": "EVENT_STREAMS", "logLevel": "INFO", "eventStreamsTopic": "ops-team"},
  {"eventName": "ATOM.STATUS", "destinationType": "EVENT_STREAMS", "logLevel": "WARNING", "eventStreamsTopic": "tfacc-00000000-left-by-a-failed-run"}
]}
JSON
go build -o "$work/bin/eventnotify-mock" ./cmd/eventnotify-mock
mock_start "$work/bin/eventnotify-mock" "$work" -account acc-live -latency 20ms -seed "$work/seed.json"
stats() { curl -fsS "$EVENTNOTIFY_BASE_URL/_mock/stats" | sed -n 's/.*"subscriptions":\([0-9]*\).*/\1/p'; }
[ "$(stats)" = 3 ] || die "the mock did not start with the 3 seeded subscriptions"

echo "==> Two live runs at once against $EVENTNOTIFY_BASE_URL with $TERRAFORM"
run() {
  TF_ACC=1 EVENTNOTIFY_ACC_LIVE=1 TF_ACC_TERRAFORM_PATH="$TERRAFORM" \
    go test -count=1 -v -parallel 1 -timeout 30m -run '^TestAcc' ./internal/provider/ >"$work/run$1.out" 2>&1
}
run 1 & first=$!
run 2 & second=$!
status=0
wait "$first" || status=1
wait "$second" || status=2
for n in 1 2; do
  out=$work/run$n.out
  if [ "$status" != 0 ]; then cat "$out" >&2; fi
  grep -q -- '--- PASS: TestAccService_subscriptionLifecycle' "$out" || die "run $n: TestAccService_subscriptionLifecycle did not pass"
  grep -q -- '--- SKIP: TestAccSubscriptionResource_lifecycle' "$out" || die "run $n: a test that needs the in-process mock did not skip"
  grep -q 'live run: needs the in-process mock' "$out" || die "run $n: the skipped tests do not say why"
  grep -q 'EVENTNOTIFY_ACC_DISPOSABLE_ACCOUNT' "$out" || die "run $n: the whole-account test does not say what it needs"
  echo "    run $n: $(grep -c -- '^--- PASS' "$out") passed, $(grep -c -- '^--- SKIP' "$out") skipped, $(grep -c -- '^--- FAIL' "$out") failed"
done
[ "$status" = 0 ] || die "a live run failed (its output is above)"
[ "$(stats)" = 3 ] || die "after the live runs the account holds $(stats) subscriptions, want the 3 it held before"

echo "==> make sweep with EVENTNOTIFY_SWEEP_MIN_AGE=0s"
EVENTNOTIFY_SWEEP_MIN_AGE=0s make --no-print-directory sweep >"$work/sweep.out" 2>&1 || { cat "$work/sweep.out" >&2; die "make sweep failed"; }
grep -q 'tfacc-00000000-left-by-a-failed-run' "$work/sweep.out" || { cat "$work/sweep.out" >&2; die "make sweep did not print the leftover it deleted"; }
[ "$(stats)" = 2 ] || die "after make sweep the account holds $(stats) subscriptions, want the other teams' 2"
echo "==> The live runs passed, left the account as they found it, and make sweep deleted only the leftover"
local_stop

# A service unlike the mock's defaults, as a profile written by eventnotify-probe describes one: the
# run must pass against it too (cmd/eventnotify-probe/process_test.go checks that the probe reports it).
cat >"$work/profile.json" <<'JSON'
{"jwtBody": "text", "singleShape": "wrapped", "emptyList": 404, "catalogShape": "strings",
 "defaultPageSize": 7, "maxPageSize": 25, "bulkUpdate": "reject", "dateHeader": false}
JSON
mock_start "$work/bin/eventnotify-mock" "$work" -account acc-live -seed "$work/seed.json" -profile "$work/profile.json"
echo "==> A live run against a mock serving $(tr -d '\n' <"$work/profile.json")"
if ! run 3; then cat "$work/run3.out" >&2; die "the live run against the profiled mock failed"; fi
echo "    run 3: $(grep -c -- '^--- PASS' "$work/run3.out") passed, $(grep -c -- '^--- SKIP' "$work/run3.out") skipped, $(grep -c -- '^--- FAIL' "$work/run3.out") failed"
[ "$(stats)" = 3 ] || die "after the live run the profiled mock's account holds $(stats) subscriptions, want the 3 it held before"
echo "==> The live run passed against a service that answers unlike the mock's defaults"
