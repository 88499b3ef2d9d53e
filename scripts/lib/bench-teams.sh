# Sourced by scripts/bench.sh: the "teams" scenarios (issue 42), many teams on one account.
# The sourcing script defines step, start_mock, stop_mock, $work and $results first.
#
# For each account size O (BENCH_TEAMS_OTHERS, default "2000 10000": subscriptions seeded in the
# mock outside Terraform) and each K (BENCH_TEAMS_K, default "1 5 20"):
#   teams-topic    K eventnotify_topic_subscriptions resources, one topic each, of E entries
#                  (BENCH_TEAMS_ENTRIES, default 100), in the account of O others;
#   teams-account  one eventnotify_account_subscriptions resource holding the same K*E entries, in
#                  an account that holds only them (the resource is authoritative for its account:
#                  it would delete the O others), so measured once per K;
# with three steps: apply (create), plan (no change; must be empty), apply1 (one entry of each
# topic changed). And for each O and D (BENCH_TEAMS_DATA, default "1 6"):
#   teams-data     D eventnotify_subscriptions data sources with different filters (notified_for
#                  among them) on the account of O: apply (reads them), plan (reads them again).
# Every teams scenario runs at the provider's defaults (10 requests/s, batched writes) with 20 ms
# per request, one run per step: list pages and requests are the figures (wall time is noise on a
# shared machine). teams_section writes the section of BENCHMARKS.md, between the markers
# <!-- teams --> and <!-- /teams -->.

TEAMS_K=${BENCH_TEAMS_K:-"1 5 20"}
TEAMS_OTHERS=${BENCH_TEAMS_OTHERS:-"2000 10000"}
TEAMS_ENTRIES=${BENCH_TEAMS_ENTRIES:-100}
TEAMS_DATA=${BENCH_TEAMS_DATA:-"1 6"}
# The listing's page size: the client's defaultListPageSize and the mock's DefaultMaxPageSize
# (TestBenchTeams checks the floor column against the latter).
TEAMS_PAGE_SIZE=100

# teams_config DIR KIND writes the configuration of a teams scenario; K, E, D and change (the
# apply1 step) are variables.
teams_config() {
  mkdir -p "$1"
  {
    cat <<'TF'
terraform {
  required_providers {
    eventnotify = { source = "eventnotify/eventnotify" }
  }
}
variable "k" { type = number }
variable "e" { type = number }
variable "d" { type = number }
variable "change" { type = bool }
locals {
  env    = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  events = ["ATOM.STATUS", "ATOM.DEPLOYMENT", "PROCESS.EXECUTION", "ENVIRONMENT.ALERT"]
  # Entry i of a topic; apply1 (change = true) lowers the level of entry 0 of each topic.
  level = { for i in range(var.e) : i => var.change && i == 0 ? "INFO" : (i % 8 < 4 ? "WARNING" : "ERROR") }
}
TF
    case "$2" in
    teams-topic)
      cat <<'TF'
resource "eventnotify_topic_subscriptions" "team" {
  count                        = var.k
  event_streams_environment_id = local.env
  event_streams_topic          = "team-${count.index}"
  subscriptions = { for i in range(var.e) : "e${i}" => {
    event_name = local.events[i % 4]
    log_level  = local.level[i]
  } }
}
TF
      ;;
    teams-account)
      cat <<'TF'
resource "eventnotify_account_subscriptions" "all" {
  subscriptions = { for p in setproduct(range(var.k), range(var.e)) : "t${p[0]}e${p[1]}" => {
    event_name                   = local.events[p[1] % 4]
    destination_type             = "EVENT_STREAMS"
    log_level                    = local.level[p[1]]
    event_streams_environment_id = local.env
    event_streams_topic          = "team-${p[0]}"
  } }
}
TF
      ;;
    teams-data)
      cat <<'TF'
locals {
  filters = [
    {},
    { event_name = "ATOM.STATUS" },
    { enabled = false },
    { log_level = "WARNING" },
    { destination_type = "EVENT_STREAMS" },
    { notified_for = { event_name = "PROCESS.EXECUTION", log_level = "ERROR" } },
  ]
}
data "eventnotify_subscriptions" "filtered" {
  count            = var.d
  event_name       = lookup(local.filters[count.index % 6], "event_name", null)
  enabled          = lookup(local.filters[count.index % 6], "enabled", null)
  log_level        = lookup(local.filters[count.index % 6], "log_level", null)
  destination_type = lookup(local.filters[count.index % 6], "destination_type", null)
  notified_for     = lookup(local.filters[count.index % 6], "notified_for", null)
}
output "matches" {
  value = [for d in data.eventnotify_subscriptions.filtered : length(d.ids)]
}
TF
      ;;
    esac
  } >"$1/main.tf"
}

# teams_scenario KIND OTHERS K D: one teams scenario in a fresh directory against a fresh mock.
teams_scenario() {
  local kind=$1 others=$2 k=$3 d=$4 id
  case "$kind" in teams-data) id="$others:$d" ;; *) id="$others:$k" ;; esac
  dir="$work/tf-$kind-${id/:/-}"
  echo "==> $kind, $others others, K=$k, D=$d"
  teams_config "$dir" "$kind"
  start_mock 20ms "$others"
  local vars=(-input=false -var "k=$k" -var "e=$TEAMS_ENTRIES" -var "d=$d")
  step "$kind" "$id" apply -- apply -auto-approve "${vars[@]}" -var change=false
  step "$kind" "$id" plan -- plan -detailed-exitcode "${vars[@]}" -var change=false
  [ "$kind" = teams-data ] || step "$kind" "$id" apply1 -- apply -auto-approve "${vars[@]}" -var change=true
  stop_mock
}

# teams_run runs every teams scenario.
teams_run() {
  local others k d
  for k in $TEAMS_K; do teams_scenario teams-account 0 "$k" 0; done
  for others in $TEAMS_OTHERS; do
    for k in $TEAMS_K; do teams_scenario teams-topic "$others" "$k" 0; done
    for d in $TEAMS_DATA; do teams_scenario teams-data "$others" 0 "$d"; done
  done
}

# teams_section ELAPSED prints the section from the teams rows of $results.
teams_section() {
  echo "<!-- teams -->"
  echo "## Many teams on one account (issue 42)"
  echo
  echo "Written by \`BENCH_SCENARIOS=teams make bench\` (scripts/lib/bench-teams.sh), which rewrites only this"
  echo "section; the numbers are figures, not test assertions."
  echo
  echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC'), provider $(git describe --tags --always --dirty 2>/dev/null || echo dev), $("$TERRAFORM" version 2>/dev/null | head -n 1)"
  echo "- $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cores; load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a); the teams scenarios took ${1}s"
  echo
  echo "At the provider's defaults (10 requests/s, batched writes), 20 ms per request, one run per step. List"
  echo "pages and requests are the same in every run, except the single reads (\`read\`) of an apply1 of several"
  echo "resources: an entry a bulk update changed is read on its own before the listing serves it again (the"
  echo "update's answer carries no subscription), and how many reads that takes depends on how the updates and"
  echo "the reads interleave."
  echo "Wall time varies from run to run on a shared machine; the CPU columns vary less. Each topic resource"
  echo "holds $TEAMS_ENTRIES entries on its own topic; the account also holds the others, seeded in the mock outside"
  echo "Terraform. \`apply\` creates everything, \`plan\` changes nothing (and must be empty), \`apply1\` changes one"
  echo "entry of each topic. **list pages** are GETs of the account's collection; **one pass** is the floor,"
  echo "ceil(total / $TEAMS_PAGE_SIZE) pages for the total the account holds after the apply (others + K x $TEAMS_ENTRIES),"
  echo "the least any read of the account costs, since the service has no filter by topic; **passes** is list"
  echo "pages over one pass; **CPU** is terraform's own and the provider processes' (user + system). Goals: a"
  echo "no-change plan reads one pass whatever K; the first apply at most two passes plus its writes."
  awk -F'\t' -v e="$TEAMS_ENTRIES" -v ps="$TEAMS_PAGE_SIZE" '
    function pass(total) { return total <= 0 ? 1 : int((total + ps - 1) / ps) }
    # split_routes sets pages (the list count) and other (the other routes) of a routes field.
    function split_routes(r,    parts, i, n, kv) {
      pages = 0; other = ""
      n = split(r, parts, ", ")
      for (i = 1; i <= n; i++) {
        split(parts[i], kv, " ")
        if (kv[1] == "list") { pages = kv[2]; continue }
        if (parts[i] == "none") continue
        other = other (other == "" ? "" : ", ") parts[i]
      }
      if (other == "") other = "none"
    }
    # row prints one step: f holds its fields in results.tsv (bench.sh step).
    function row(lead, total,    cpu) {
      split_routes(f[12])
      cpu = (f[5] != "n/a" && f[6] != "n/a") ? sprintf("%.2f / %.2f", f[5] - f[6], f[6]) : "n/a"
      printf "| %s | %s | %d | %d | %.2f | %s | %s | %s |\n", lead, f[3], pages, pass(total), pages / pass(total), other, f[4], cpu
    }
    $1 ~ /^teams-/ { split($2, ok, ":"); rows[++n] = $0; if ($1 == "teams-topic") sizes[ok[1]] = 1 }
    END {
      head = "| %s | step | list pages | one pass | passes | other requests | wall s | CPU s terraform / provider |\n|---:|---|---:|---:|---:|---|---:|---|\n"
      for (o in sizes) order[++no] = o + 0
      for (i = 1; i <= no; i++) for (j = i + 1; j <= no; j++) if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
      for (i = 1; i <= no; i++) {
        printf "\n### K topic resources of %d entries, on an account of %d other subscriptions\n\n", e, order[i]
        printf head, "K"
        for (r = 1; r <= n; r++) {
          split(rows[r], f, "\t"); split(f[2], ok, ":")
          if (f[1] == "teams-topic" && ok[1] + 0 == order[i]) row(ok[2], ok[1] + ok[2] * e)
        }
      }
      printf "\n### One eventnotify_account_subscriptions resource holding the same K x %d entries\n\n", e
      print "The account resource owns its whole account (it deletes any subscription its entries do not hold),"
      print "so it cannot share an account with others: its account holds only its K x " e " entries, and its"
      print "one pass is K pages."
      print ""
      printf head, "K"
      for (r = 1; r <= n; r++) {
        split(rows[r], f, "\t"); split(f[2], ok, ":")
        if (f[1] == "teams-account") row(ok[2], ok[2] * e)
      }
      print "\n### D eventnotify_subscriptions data sources with different filters, on one account\n"
      print "Filters in turn: none, `event_name`, `enabled = false`, `log_level`, `destination_type`, `notified_for`"
      print "(the functions `notifies` and `levels_notified` read nothing from the service). No resources; the"
      print "account holds only the seeded others. Both steps read every data source."
      print ""
      print "| others | D | step | list pages | one pass | passes | other requests | wall s | CPU s terraform / provider |"
      print "|---:|---:|---|---:|---:|---:|---|---:|---|"
      for (r = 1; r <= n; r++) {
        split(rows[r], f, "\t"); split(f[2], ok, ":")
        if (f[1] == "teams-data") row(ok[1] " | " ok[2], ok[1])
      }
    }' "$results"
  echo
  echo "<!-- /teams -->"
}
