# Sourced by scripts/demo.sh and scripts/module-test.sh: what both do to run a CLI against a local
# build of the provider and the mock server. The sourcing script sets `die` and TERRAFORM first.

# cli_detect sets cli_version, cli (terraform or tofu) and provider_address (the full address
# that dev_overrides names: Terraform and OpenTofu put different registry hosts in front of
# "eventnotify/eventnotify").
cli_detect() {
  cli_version=$(TF_CLI_CONFIG_FILE=/dev/null "$TERRAFORM" version | sed -n 1p)
  case "$cli_version" in
    OpenTofu*) cli=tofu; provider_address=registry.opentofu.org/eventnotify/eventnotify ;;
    Terraform*) cli=terraform; provider_address=registry.terraform.io/eventnotify/eventnotify ;;
    *) die "$TERRAFORM is neither Terraform nor OpenTofu: its version is '$cli_version'" ;;
  esac
}

# local_start WORK [MOCK FLAGS...] builds the provider and the mock into WORK/bin, starts the mock
# on a free loopback port with the flags given (mock_start), and writes WORK/cli.tfrc, a CLI
# configuration whose dev_overrides point at WORK/bin (exported as TF_CLI_CONFIG_FILE). It sets
# mock_pid; local_stop stops the mock.
local_start() {
  local work=$1
  shift
  go build -o "$work/bin/terraform-provider-eventnotify" .
  go build -o "$work/bin/eventnotify-mock" ./cmd/eventnotify-mock
  mock_start "$work/bin/eventnotify-mock" "$work" "$@"
  cat >"$work/cli.tfrc" <<RC
provider_installation {
  dev_overrides {
    "$provider_address" = "$work/bin"
  }
  direct {}
}
RC
  export TF_CLI_CONFIG_FILE="$work/cli.tfrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
}

# mock_start MOCK WORK [MOCK FLAGS...] starts the mock binary MOCK on a free loopback port with the
# flags given, its output in WORK/mock.env and WORK/mock.err, and exports the EVENTNOTIFY_* lines
# it prints, as a user's script does. It sets mock_pid; local_stop stops the mock.
mock_start() {
  local mock=$1 work=$2
  shift 2
  "$mock" -listen 127.0.0.1:0 "$@" >"$work/mock.env" 2>"$work/mock.err" &
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
}

# local_stop stops the mock that local_start or mock_start started, if it runs.
local_stop() {
  if [ -n "${mock_pid:-}" ] && kill -0 "$mock_pid" 2>/dev/null; then
    kill -TERM "$mock_pid" 2>/dev/null || true
    wait "$mock_pid" 2>/dev/null || true
  fi
}
