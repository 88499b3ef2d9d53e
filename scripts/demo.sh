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

# Terraform and OpenTofu put different registry hosts in front of the source
# address "eventnotify/eventnotify"; dev_overrides names the full address.
cli_version=$(TF_CLI_CONFIG_FILE=/dev/null "$TERRAFORM" version | sed -n 1p)
case "$cli_version" in
  OpenTofu*) cli=tofu; provider_address=registry.opentofu.org/eventnotify/eventnotify ;;
  Terraform*) cli=terraform; provider_address=registry.terraform.io/eventnotify/eventnotify ;;
  *) die "$TERRAFORM is neither Terraform nor OpenTofu: its version is '$cli_version'" ;;
esac
echo "==> Using $cli_version ($TERRAFORM)"

work=$(mktemp -d "${TMPDIR:-/tmp}/eventnotify-demo.XXXXXX")
mock_pid=""
cleanup() {
  if [ -n "$mock_pid" ] && kill -0 "$mock_pid" 2>/dev/null; then
    kill -TERM "$mock_pid" 2>/dev/null || true
    wait "$mock_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

echo "==> Building the provider and the mock server"
go build -o "$work/bin/terraform-provider-eventnotify" .
go build -o "$work/bin/eventnotify-mock" ./cmd/eventnotify-mock

echo "==> Starting the mock server on a free loopback port"
"$work/bin/eventnotify-mock" -listen 127.0.0.1:0 >"$work/mock.out" 2>"$work/mock.err" &
mock_pid=$!
# The mock's first line, once it listens, is EVENTNOTIFY_BASE_URL=<url>.
for _ in $(seq 1 200); do
  grep -q '^EVENTNOTIFY_BASE_URL=' "$work/mock.out" 2>/dev/null && break
  kill -0 "$mock_pid" 2>/dev/null || die "the mock server exited: $(cat "$work/mock.err")"
  sleep 0.05
done
grep -q '^EVENTNOTIFY_BASE_URL=' "$work/mock.out" || die "the mock server did not start within 10 seconds"
sleep 0.1 # let it print the credential lines that follow the first one
while IFS='=' read -r key value; do
  case "$key" in EVENTNOTIFY_*) export "$key=$value" ;; esac
done <"$work/mock.out"
echo "    mock listening at $EVENTNOTIFY_BASE_URL (account $EVENTNOTIFY_ACCOUNT_ID)"

cat >"$work/terraformrc" <<RC
provider_installation {
  dev_overrides {
    "$provider_address" = "$work/bin"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/terraformrc"
export TF_IN_AUTOMATION=1
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
