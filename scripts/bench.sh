#!/usr/bin/env bash
# `make bench`: a Terraform-level benchmark of eventnotify_subscription against the mock.
#
# Builds the provider and the mock server, and for N subscriptions (BENCH_SIZES, default
# "100 1000") runs four steps at Terraform's default parallelism (10):
#   apply    create N subscriptions            (terraform apply)
#   plan     a plan with nothing changed       (terraform plan -detailed-exitcode; must be empty)
#   apply10  an apply that changes 10% of them (terraform apply)
#   destroy  destroy them                      (terraform destroy)
# in these scenarios, each with a fresh mock and a fresh working directory:
#   floor      N terraform_data resources (Terraform's built-in, no provider, no HTTP)
#   0 ms       the provider, no injected latency, max_requests_per_second = 0
#   20 ms      the provider, 20 ms per request,   max_requests_per_second = 0
#   limit      the provider, 20 ms per request, the default limit (10 requests/s), writes
#              batched (the defaults): what users see
#   single     as "limit", with max_batch_size = 1: every write on its own
#   account    one eventnotify_account_subscriptions resource holding the N subscriptions, 20 ms
#              per request, the default limit
#   account0   as "account", no latency, max_requests_per_second = 0: the provider's own cost
#   sdklogs    (N = 1000) as "0 ms", with the plugin SDK's loggers at TRACE (TF_LOG_SDK=TRACE),
#              which is what they did before main.go turned them off without a TF_LOG* variable
#   nolog      (N = 1000) as "0 ms", with the plugin SDK's logs turned off (TF_LOG_SDK=OFF,
#              TF_LOG_SDK_PROTO=OFF, TF_LOG_SDK_FRAMEWORK=OFF, TF_LOG_PROVIDER=OFF): a
#              diagnostic of where the time goes
#   10k        (N = 1000) as "0 ms", in an account that holds 10,000 subscriptions (9,000
#              seeded in the mock, outside Terraform)
#   teams      many teams on one account (issue 42): K topic resources beside one account
#              resource, and data sources with different filters; their own sizes and steps,
#              described in scripts/lib/bench-teams.sh, and their own section of BENCHMARKS.md
# and writes BENCHMARKS.md (BENCH_OUT) with, per step: wall time and its ratio to the floor,
# requests by route and JWT fetches (the mock's counters, reset before each step), the
# provider's peak memory, and the CPU time of terraform, of the provider and of the mock.
#
# Measurement:
#   - wall time: date before and after the terraform command;
#   - provider peak memory and CPU: the dev_overrides directory holds a wrapper that runs the
#     real provider binary under GNU time (/usr/bin/time -f), which reports each provider
#     process's maximum resident set size (getrusage ru_maxrss) and CPU time when it exits.
#     Terraform starts several provider processes per command (schema, plan, apply); a step
#     reports the largest peak and the sum of their CPU;
#   - terraform's CPU: GNU time around terraform (its own CPU plus that of the provider
#     processes it waited for; the provider's CPU is subtracted);
#   - mock CPU: utime + stime of the mock process from /proc/<pid>/stat, before and after.
#     "mock share" is that CPU time over the step's wall time; "handler s" is the time the
#     mock spent serving requests, the injected latency excluded (GET /_mock/stats).
# Without GNU time (or /proc) those columns read n/a. Needs Go, Terraform and curl.
#
# A diagnostic fifth step, plan-norefresh (terraform plan -refresh=false), plans without reading
# anything: for the provider, the plugin protocol's cost without any Read or HTTP request. The
# two plan steps run BENCH_PLAN_RUNS times (default 3) and report their fastest run.
#
# Settings: TERRAFORM (binary), BENCH_SIZES, BENCH_OUT, BENCH_PLAN_RUNS, BENCH_GO=0 to skip the
# Go benchmarks, BENCH_SCENARIOS (names to run, default all), BENCH_TEAMS_* (bench-teams.sh).
#
# BENCHMARKS.md has three parts: the sections above the teams section, the teams section (between
# <!-- teams --> and <!-- /teams -->) and the hand-written notes (from <!-- notes --> on). A run
# rewrites the parts whose scenarios it ran and keeps the others as they are:
# BENCH_SCENARIOS=teams rewrites the teams section only (and runs no Go benchmarks).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/bench-teams.sh

die() { echo "bench: $*" >&2; exit 1; }
command -v go >/dev/null || die "Go is required"
command -v curl >/dev/null || die "curl is required (it reads the mock's counters)"
TERRAFORM=${TERRAFORM:-$(command -v terraform || true)}
[ -n "$TERRAFORM" ] && [ -x "$TERRAFORM" ] || die "Terraform is required: install it, or run 'make bench', which builds one when none is on PATH"
SIZES=${BENCH_SIZES:-"100 1000"}
OUT=${BENCH_OUT:-BENCHMARKS.md}
PLAN_RUNS=${BENCH_PLAN_RUNS:-3}
ACCOUNT_SIZE=10000

# No caller setting may change what is measured.
for v in $(env | sed -n 's/^\(TF_LOG[A-Z_]*\|EVENTNOTIFY_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
unset TF_CLI_ARGS TF_CLI_ARGS_plan TF_CLI_ARGS_apply TF_CLI_ARGS_destroy

work=$(mktemp -d "${TMPDIR:-/tmp}/eventnotify-bench.XXXXXX")
mock_pid=""
stop_mock() {
  if [ -n "$mock_pid" ] && kill -0 "$mock_pid" 2>/dev/null; then
    kill -TERM "$mock_pid" 2>/dev/null || true
    wait "$mock_pid" 2>/dev/null || true
  fi
  mock_pid=""
}
cleanup() { stop_mock; rm -rf "$work"; }
trap cleanup EXIT INT TERM

gnu_time=""
if /usr/bin/time -f '%M' -o /dev/null true 2>/dev/null; then gnu_time=/usr/bin/time; fi
clk_tck=$(getconf CLK_TCK 2>/dev/null || echo 100)

echo "==> Building the provider and the mock server"
go build -trimpath -o "$work/real/terraform-provider-eventnotify" .
go build -trimpath -o "$work/bin-mock/eventnotify-mock" ./cmd/eventnotify-mock
mkdir -p "$work/bin"
export BENCH_PROVIDER_LOG="$work/provider.log" BENCH_PROVIDER_BIN="$work/real/terraform-provider-eventnotify"
if [ -n "$gnu_time" ]; then
  cat >"$work/bin/terraform-provider-eventnotify" <<'SH'
#!/bin/sh
# One line per provider process: peak RSS (KiB), user CPU s, system CPU s.
exec /usr/bin/time -f '%M %U %S' -a -o "$BENCH_PROVIDER_LOG" "$BENCH_PROVIDER_BIN" "$@"
SH
else
  cat >"$work/bin/terraform-provider-eventnotify" <<'SH'
#!/bin/sh
exec "$BENCH_PROVIDER_BIN" "$@"
SH
fi
chmod +x "$work/bin/terraform-provider-eventnotify"
cat >"$work/terraformrc" <<RC
provider_installation {
  dev_overrides {
    "eventnotify/eventnotify" = "$work/bin"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/terraformrc" TF_IN_AUTOMATION=1

# start_mock LATENCY SEED starts a fresh mock and exports its EVENTNOTIFY_* variables.
start_mock() {
  stop_mock
  "$work/bin-mock/eventnotify-mock" -listen 127.0.0.1:0 -latency "$1" -seed "$2" >"$work/mock.out" 2>"$work/mock.err" &
  mock_pid=$!
  for _ in $(seq 1 400); do
    [ "$(grep -c '^EVENTNOTIFY_' "$work/mock.out" 2>/dev/null)" -ge 5 ] && break
    kill -0 "$mock_pid" 2>/dev/null || die "the mock server exited: $(cat "$work/mock.err")"
    sleep 0.05
  done
  [ "$(grep -c '^EVENTNOTIFY_' "$work/mock.out")" -ge 5 ] || die "the mock server did not start within 20 seconds"
  while IFS='=' read -r key value; do
    case "$key" in EVENTNOTIFY_*) export "$key=$value" ;; esac
  done <"$work/mock.out"
}

# mock_cpu prints the mock's CPU seconds so far (n/a without /proc).
mock_cpu() {
  local stat
  if [ -n "$mock_pid" ] && stat=$(cat "/proc/$mock_pid/stat" 2>/dev/null); then
    stat=${stat##*) }
    # shellcheck disable=SC2086
    set -- $stat
    awk -v u="${12}" -v s="${13}" -v t="$clk_tck" 'BEGIN { printf "%.2f", (u + s) / t }'
  else
    echo n/a
  fi
}

# write_config DIR KIND LIMIT: the benchmark's configuration, N and K as variables.
write_config() {
  mkdir -p "$1"
  case "$2" in
  floor)
    cat >"$1/main.tf" <<'TF'
variable "n" { type = number }
variable "k" { type = number }
resource "terraform_data" "bench" {
  count = var.n
  input = {
    log_level = count.index < var.k ? "INFO" : "ERROR"
    topic     = "bench-${count.index}"
  }
}
TF
    ;;
  provider)
    cat >"$1/main.tf" <<TF
terraform {
  required_providers {
    eventnotify = { source = "eventnotify/eventnotify" }
  }
}
variable "n" { type = number }
variable "k" { type = number }
provider "eventnotify" {
  $3
}
resource "eventnotify_subscription" "bench" {
  count               = var.n
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = count.index < var.k ? "INFO" : "ERROR"
  event_streams_topic = "bench-\${count.index}"
}
TF
    ;;
  account)
    cat >"$1/main.tf" <<TF
terraform {
  required_providers {
    eventnotify = { source = "eventnotify/eventnotify" }
  }
}
variable "n" { type = number }
variable "k" { type = number }
provider "eventnotify" {
  $3
}
resource "eventnotify_account_subscriptions" "bench" {
  subscriptions = { for i in range(var.n) : "s\${i}" => {
    event_name          = "ATOM.STATUS"
    destination_type    = "EVENT_STREAMS"
    log_level           = i < var.k ? "INFO" : "ERROR"
    event_streams_topic = "bench-\${i}"
  } }
}
TF
    ;;
  esac
}

results="$work/results.tsv"
: >"$results"

# step SCENARIO N NAME ENV... -- TERRAFORM-ARGS...: runs one measured terraform command.
step() {
  local scenario=$1 n=$2 name=$3
  shift 3
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  : >"$BENCH_PROVIDER_LOG"
  local m0="n/a" m1="n/a" stats=""
  if [ -n "$mock_pid" ]; then
    curl -fsS -X POST "$EVENTNOTIFY_BASE_URL/_mock/reset" >/dev/null
    m0=$(mock_cpu)
  fi
  local t0 t1 code=0
  t0=$(date +%s.%N)
  if [ -n "$gnu_time" ]; then
    env "${envs[@]}" "$gnu_time" -f '%U %S' -o "$work/tf.time" "$TERRAFORM" -chdir="$dir" "$@" >"$work/step.log" 2>&1 || code=$?
  else
    env "${envs[@]}" "$TERRAFORM" -chdir="$dir" "$@" >"$work/step.log" 2>&1 || code=$?
  fi
  t1=$(date +%s.%N)
  if [[ "$name" == plan* ]]; then
    [ "$code" -eq 0 ] || { cat "$work/step.log" >&2; die "$scenario N=$n: the plan after apply was not empty (exit code $code)"; }
  elif [ "$code" -ne 0 ]; then
    cat "$work/step.log" >&2
    die "$scenario N=$n: terraform ${*:1:1} failed (exit code $code)"
  fi
  if [ -n "$mock_pid" ]; then
    m1=$(mock_cpu)
    stats=$(curl -fsS "$EVENTNOTIFY_BASE_URL/_mock/stats?format=text")
  fi
  local tf_cpu="n/a" prov_cpu="n/a" prov_kb="n/a" procs=0
  if [ -n "$gnu_time" ]; then
    tf_cpu=$(awk '{ printf "%.2f", $1 + $2 }' "$work/tf.time")
    if [ -s "$BENCH_PROVIDER_LOG" ]; then
      prov_cpu=$(awk '$1 ~ /^[0-9]+$/ { c += $2 + $3 } END { printf "%.2f", c }' "$BENCH_PROVIDER_LOG")
      prov_kb=$(awk '$1 ~ /^[0-9]+$/ && $1 > m { m = $1 } END { print m + 0 }' "$BENCH_PROVIDER_LOG")
      procs=$(awk '$1 ~ /^[0-9]+$/ { n++ } END { print n + 0 }' "$BENCH_PROVIDER_LOG")
    fi
  fi
  local wall mock="n/a"
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  [ "$m0" = n/a ] || [ "$m1" = n/a ] || mock=$(awk -v a="$m0" -v b="$m1" 'BEGIN { printf "%.2f", b - a }')
  local total="" jwt="" handler="" routes=""
  if [ -n "$stats" ]; then
    total=$(awk -F'\t' '$1 == "total" { print $2 }' <<<"$stats")
    jwt=$(awk -F'\t' '$1 == "jwt_fetches" { print $2 }' <<<"$stats")
    handler=$(awk -F'\t' '$1 == "handler_seconds" { printf "%.2f", $2 }' <<<"$stats")
    routes=$(awk -F'\t' '
      $1 != "request" { next }
      {
        split($2, mr, " "); m = mr[1]; r = mr[2]; name = m " " r; rank = 9
        if (r ~ /^\/auth\/jwt/) { name = "jwt"; rank = 1 }
        else if (r ~ /subscriptions$/ && m == "GET") { name = "list"; rank = 2 }
        else if (r ~ /[{]subscriptionId[}]$/ && m == "GET") { name = "read"; rank = 3 }
        else if (r ~ /subscriptions$/ && m == "POST") { name = "create"; rank = 4 }
        else if (r ~ /[{]subscriptionId[}]$/ && m == "PUT") { name = "update"; rank = 5 }
        else if (r ~ /[{]subscriptionId[}]$/ && m == "DELETE") { name = "delete"; rank = 6 }
        else if (r ~ /subscriptions$/ && m == "PATCH") { name = "bulk"; rank = 7 }
        part[rank] = part[rank] (part[rank] == "" ? "" : ", ") name " " $3
      }
      END { for (i = 1; i <= 9; i++) if (part[i] != "") out = out (out == "" ? "" : ", ") part[i]; print out }' <<<"$stats")
  fi
  [ -z "$stats" ] || [ -n "$routes" ] || routes="none"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$scenario" "$n" "$name" "$wall" "$tf_cpu" "$prov_cpu" "$prov_kb" \
    "$mock" "$handler" "$jwt" "$total" "$routes" "$procs" >>"$results"
  printf '    %-15s %7ss  %s\n' "$name" "$wall" "${routes:-(no provider)}"
}

# selected NAME: whether BENCH_SCENARIOS names the scenario (or is all).
selected() {
  case " ${BENCH_SCENARIOS:-all} " in *" all "* | *" $1 "*) return 0 ;; esac
  return 1
}
# The main part of BENCHMARKS.md is rewritten when any scenario but teams runs.
main_ran=0
for name in ${BENCH_SCENARIOS:-all}; do [ "$name" = teams ] || main_ran=1; done

# scenario ID N KIND LATENCY SEED LIMIT ENV...: the four steps in a fresh directory.
scenario() {
  local id=$1 n=$2 kind=$3 latency=$4 seed=$5 limit=$6
  shift 6
  selected "$id" || return 0
  local k=$((n / 10))
  dir="$work/tf-$id-$n"
  echo "==> $id, N=$n"
  write_config "$dir" "$kind" "$limit"
  if [ "$kind" != floor ]; then start_mock "$latency" "$seed"; else stop_mock; fi
  step "$id" "$n" apply "$@" -- apply -auto-approve -input=false -var "n=$n" -var k=0
  # Plans change nothing: they are repeated and the fastest run is kept, to damp the noise of
  # a shared machine.
  for _ in $(seq 1 "$PLAN_RUNS"); do
    step "$id" "$n" plan "$@" -- plan -detailed-exitcode -input=false -var "n=$n" -var k=0
  done
  for _ in $(seq 1 "$PLAN_RUNS"); do
    step "$id" "$n" plan-norefresh "$@" -- plan -refresh=false -detailed-exitcode -input=false -var "n=$n" -var k=0
  done
  step "$id" "$n" apply10 "$@" -- apply -auto-approve -input=false -var "n=$n" -var "k=$k"
  step "$id" "$n" destroy "$@" -- destroy -auto-approve -input=false -var "n=$n" -var "k=$k"
  stop_mock
}

nolog=(TF_LOG_SDK=OFF TF_LOG_SDK_PROTO=OFF TF_LOG_SDK_FRAMEWORK=OFF TF_LOG_PROVIDER=OFF)
unlimited="max_requests_per_second = 0"
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)
started=$(date +%s)
for n in $SIZES; do
  scenario floor "$n" floor 0ms 0 ""
  scenario 0ms "$n" provider 0ms 0 "$unlimited"
  scenario 20ms "$n" provider 20ms 0 "$unlimited"
  scenario limit "$n" provider 20ms 0 ""
  scenario single "$n" provider 20ms 0 "max_batch_size = 1"
  scenario account "$n" account 20ms 0 ""
  scenario account0 "$n" account 0ms 0 "$unlimited"
  if [ "$n" = 1000 ]; then
    scenario nolog "$n" provider 0ms 0 "$unlimited" "${nolog[@]}"
    scenario sdklogs "$n" provider 0ms 0 "$unlimited" TF_LOG_SDK=TRACE
    scenario 10k "$n" provider 0ms $((ACCOUNT_SIZE - n)) "$unlimited"
  fi
done
teams_elapsed=""
if selected teams; then
  teams_started=$(date +%s)
  teams_run
  teams_elapsed=$(($(date +%s) - teams_started))
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)
elapsed=$(($(date +%s) - started))

gobench=""
if [ "${BENCH_GO:-1}" != 0 ] && [ "$main_ran" = 1 ]; then
  echo "==> Go benchmarks"
  gobench=$(go test -run '^$' -bench . -benchmem ./internal/client/... ./internal/mockserver/ ./internal/provider/ 2>&1 | grep -E '^(Benchmark|ok|FAIL|goos|goarch|cpu|pkg)' || true)
fi

echo "==> Writing $OUT"
# The fastest run of each repeated step, in the order of the first run.
awk -F'\t' '{ k = $1 SUBSEP $2 SUBSEP $3; if (!(k in best)) { order[++n] = k; best[k] = $0; w[k] = $4 } else if ($4 + 0 < w[k] + 0) { best[k] = $0; w[k] = $4 } }
  END { for (i = 1; i <= n; i++) print best[order[i]] }' "$results" >"$results.best"
mv "$results.best" "$results"
cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
mem_total=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || true)
# The main part reads the rows of every scenario but the teams ones, which have their section.
main_results="$work/main.tsv"
grep -v '^teams-' "$results" >"$main_results" || true
# main_sections prints the main part of BENCHMARKS.md.
main_sections() {
  echo "# Benchmarks"
  echo
  echo "Written by \`make bench\` (scripts/bench.sh); the numbers are figures, not test assertions. Rerun to refresh."
  echo
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- Machine: ${cpu_model:-unknown CPU}, $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores, ${mem_total:-? RAM}, $(uname -sr)"
  echo "- $("$TERRAFORM" version 2>/dev/null | head -n 1), $(go version | cut -d' ' -f3-4), provider $(git describe --tags --always --dirty 2>/dev/null || echo dev)"
  echo "- Load average before and after: $load_before / $load_after; the whole run took ${elapsed}s"
  echo
  echo "Steps, at Terraform's default parallelism (10), each in a fresh directory against a fresh mock:"
  echo "\`apply\` creates N subscriptions, \`plan\` is a plan with nothing changed (it refreshes N), \`apply10\`"
  echo "changes 10% of them (its plan refreshes N), \`destroy\` destroys them (its plan refreshes N). The floor is"
  echo "the same steps with N \`terraform_data\` resources (built into Terraform: no provider, no HTTP)."
  echo "\`plan-norefresh\` (\`terraform plan -refresh=false\`, a diagnostic) reads nothing: for the provider, it is"
  echo "the cost of the plugin protocol alone. Both plan steps are the fastest of $PLAN_RUNS runs."
  echo
  echo "Columns: **wall** seconds and its ratio to the floor's same step; **requests** by route as the mock"
  echo "counted them (list = GET of the collection, one per page of 100; read = GET of one subscription); **JWT**"
  echo "fetches; the provider's **peak RSS** (largest of the step's provider processes, and how many Terraform"
  echo "started); **CPU** seconds of terraform itself, of the provider processes and of the mock; the mock's"
  echo "**share** of the wall time (its CPU time over the wall time) and its **handler** time (serving requests,"
  echo "injected latency excluded)."
  awk -F'\t' '
    BEGIN {
      title["floor"] = "Floor: terraform_data"
      title["0ms"] = "Provider, no latency, max_requests_per_second = 0"
      title["20ms"] = "Provider, 20 ms per request, max_requests_per_second = 0"
      title["limit"] = "Provider, 20 ms per request, default limit (10 requests/s), batched writes (the defaults): what users see"
      title["account"] = "One eventnotify_account_subscriptions resource holding all N, 20 ms per request, default limit"
      title["account0"] = "One eventnotify_account_subscriptions resource holding all N, no latency, max_requests_per_second = 0"
      title["single"] = "Provider, 20 ms per request, default limit (10 requests/s), max_batch_size = 1 (every write on its own)"
      title["sdklogs"] = "Diagnostic: provider, no latency, unlimited, plugin SDK logs at TRACE (as before they were turned off)"
      title["nolog"] = "Diagnostic: provider, no latency, unlimited, plugin SDK logs off"
      title["10k"] = "Provider, no latency, unlimited, in an account of 10,000 subscriptions"
    }
    { rows[NR] = $0; if ($1 == "floor") floor[$2 SUBSEP $3] = $4 }
    END {
      for (i = 1; i <= NR; i++) {
        split(rows[i], f, "\t")
        key = f[1] SUBSEP f[2]
        if (!(key in seen)) {
          seen[key] = 1
          printf "\n### %s, N = %s\n\n", title[f[1]], f[2]
          if (f[1] == "floor") {
            print "| step | wall s | terraform CPU s |"
            print "|---|---:|---:|"
          } else {
            print "| step | wall s | x floor | requests | JWT | peak RSS MiB (processes) | CPU s terraform / provider / mock | mock share | handler s |"
            print "|---|---:|---:|---|---:|---:|---|---:|---:|"
          }
        }
        if (f[1] == "floor") { printf "| %s | %s | %s |\n", f[3], f[4], f[5]; continue }
        fl = floor[f[2] SUBSEP f[3]]
        ratio = (fl > 0) ? sprintf("%.2f", f[4] / fl) : "n/a"
        rss = (f[7] ~ /^[0-9]+$/) ? sprintf("%.0f (%d)", f[7] / 1024, f[13]) : "n/a"
        tf = (f[5] != "n/a" && f[6] != "n/a") ? sprintf("%.2f", f[5] - f[6]) : "n/a"
        share = (f[8] != "n/a" && f[4] > 0) ? sprintf("%.1f%%", 100 * f[8] / f[4]) : "n/a"
        printf "| %s | %s | %s | %s (%s in all) | %s | %s | %s / %s / %s | %s | %s |\n", f[3], f[4], ratio, f[12], f[11], f[10], rss, tf, f[6], f[8], share, f[9]
      }
    }' "$main_results"
  echo
  echo "## Target: N = 1000, no latency, within 1.5x of the floor"
  echo
  awk -F'\t' '
    $2 == 1000 && ($1 == "floor" || $1 == "0ms" || $1 == "nolog") { wall[$1, $3] = $4; cpu[$1, $3] = $5; pcpu[$1, $3] = $6; req[$1, $3] = $11 }
    END {
      if (!(("floor", "apply") in wall) || !(("0ms", "apply") in wall)) { print "Not measured (BENCH_SIZES has no 1000)."; exit }
      print "| step | floor s | provider s | x floor | within 1.5x | CPU s: floor / provider (x floor) | SDK logs off: s (x floor), CPU s (x floor) |"
      print "|---|---:|---:|---:|---|---|---|"
      n = split("apply plan", steps, " ")
      for (i = 1; i <= n; i++) {
        s = steps[i]; r = wall["0ms", s] / wall["floor", s]
        printf "| %s | %s | %s | %.2f | %s | %s / %s (%.2f) | %s (%.2f), %s (%.2f) |\n", s, wall["floor", s], wall["0ms", s], r, (r <= 1.5 ? "yes" : "no"),
          cpu["floor", s], cpu["0ms", s], cpu["0ms", s] / cpu["floor", s],
          wall["nolog", s], wall["nolog", s] / wall["floor", s], cpu["nolog", s], cpu["nolog", s] / cpu["floor", s]
      }
      print ""
      print "CPU time (terraform and the provider processes, user + system) depends much less than wall time on"
      print "what else runs on the machine: on a shared machine, compare the CPU ratios."
      print ""
      print "Where the time of a no-change plan goes (N = 1000, no latency; CPU seconds, both cores):"
      print ""
      print "| run | wall s | requests | CPU s in all | terraform | provider |"
      print "|---|---:|---:|---:|---:|---:|"
      printf "| floor: terraform_data | %s | 0 | %s | %s | - |\n", wall["floor", "plan"], cpu["floor", "plan"], cpu["floor", "plan"]
      split("0ms nolog", runs, " "); split("provider|provider, SDK logs off", names, "|")
      for (j = 1; j <= 2; j++) {
        r = runs[j]
        if (!((r, "plan") in wall)) continue
        printf "| %s, plan -refresh=false (no Read, no HTTP) | %s | %s | %s | %.2f | %s |\n", names[j], wall[r, "plan-norefresh"], req[r, "plan-norefresh"], cpu[r, "plan-norefresh"], cpu[r, "plan-norefresh"] - pcpu[r, "plan-norefresh"], pcpu[r, "plan-norefresh"]
        printf "| %s, plan (refresh) | %s | %s | %s | %.2f | %s |\n", names[j], wall[r, "plan"], req[r, "plan"], cpu[r, "plan"], cpu[r, "plan"] - pcpu[r, "plan"], pcpu[r, "plan"]
      }
    }' "$main_results"
  echo
  echo "## Batched writes at the default request limit (10 requests/s, 20 ms per request)"
  echo
  awk -F'\t' '
    ($1 == "floor" || $1 == "limit" || $1 == "single") { wall[$1, $2, $3] = $4; req[$1, $2, $3] = $11; routes[$1, $2, $3] = $12; sizes[$2] = 1 }
    END {
      print "| N | step | floor s | batched s (x floor) | requests | one write per request s (x floor) | requests |"
      print "|---:|---|---:|---|---|---|---|"
      for (n in sizes) {
        split("apply apply10 destroy plan", steps, " ")
        for (i = 1; i <= 4; i++) {
          s = steps[i]; f = wall["floor", n, s]
          if (!(("limit", n, s) in wall) || f <= 0) continue
          printf "| %s | %s | %s | %s (%.2f) | %s | %s (%.2f) | %s |\n", n, s, f, wall["limit", n, s], wall["limit", n, s] / f, routes["limit", n, s],
            wall["single", n, s], wall["single", n, s] / f, routes["single", n, s]
        }
      }
    }' "$main_results"
  echo
  echo "## The no-change plan before and after the SDK's loggers were turned off (N = 1000, no latency)"
  echo
  awk -F'\t' '
    $2 == 1000 && ($1 == "floor" || $1 == "0ms" || $1 == "sdklogs") { wall[$1, $3] = $4; cpu[$1, $3] = $5; pcpu[$1, $3] = $6 }
    END {
      if (!(("sdklogs", "plan") in wall)) { print "Not measured (BENCH_SIZES has no 1000)."; exit }
      print "| run | plan s (x floor) | CPU s (x floor) | provider CPU s | plan -refresh=false s (x floor) |"
      print "|---|---|---|---:|---|"
      split("sdklogs 0ms", runs, " "); split("before: SDK logs at TRACE|after: SDK logs off without TF_LOG*", names, "|")
      for (j = 1; j <= 2; j++) {
        r = runs[j]
        printf "| %s | %s (%.2f) | %s (%.2f) | %s | %s (%.2f) |\n", names[j], wall[r, "plan"], wall[r, "plan"] / wall["floor", "plan"],
          cpu[r, "plan"], cpu[r, "plan"] / cpu["floor", "plan"], pcpu[r, "plan"], wall[r, "plan-norefresh"], wall[r, "plan-norefresh"] / wall["floor", "plan-norefresh"]
      }
    }' "$main_results"
  echo
  echo "## Go benchmarks"
  echo
  echo "\`go test -run '^\$' -bench . -benchmem ./internal/client/... ./internal/mockserver/ ./internal/provider/\`"
  echo
  echo '```'
  echo "${gobench:-skipped (BENCH_GO=0)}"
  echo '```'
}
[ -f "$OUT" ] || : >"$OUT"
{
  if [ "$main_ran" = 1 ]; then
    main_sections
  else
    # The main part as it was: everything before the teams section or the notes, without the
    # blank lines that separate it from them.
    awk '/^<!-- (teams|notes) -->$/ { exit } $0 == "" { blanks++; next } { for (; blanks > 0; blanks--) print ""; print }' "$OUT"
  fi
  if [ -n "$teams_elapsed" ]; then
    echo
    teams_section "$teams_elapsed"
  elif grep -q '^<!-- teams -->$' "$OUT"; then
    echo
    sed -n '/^<!-- teams -->$/,/^<!-- \/teams -->$/p' "$OUT"
  fi
  if grep -q '^<!-- notes -->$' "$OUT"; then
    # Keep the hand-written notes at the end of the file.
    echo
    sed -n '/^<!-- notes -->$/,$p' "$OUT"
  fi
} >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "==> Done in ${elapsed}s: $OUT"
