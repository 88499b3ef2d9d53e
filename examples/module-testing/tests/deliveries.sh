#!/usr/bin/env bash
# End to end, after `terraform test`: applies the module against the mock server, fires events at
# the mock (POST /_mock/events), checks which topics it delivered them to (GET /_mock/deliveries),
# and destroys what it applied. Run it from the module's directory with the EVENTNOTIFY_* lines the
# mock printed exported; TERRAFORM=tofu runs OpenTofu. Needs curl.
set -euo pipefail
tf=${TERRAFORM:-terraform}
vars=tests/deliveries.tfvars

# fire EVENT LEVEL fires an event at the mock's account.
fire() {
  curl -fsS -X POST "$EVENTNOTIFY_BASE_URL/_mock/events" -H 'Content-Type: application/json' \
    -d "{\"accountId\": \"$EVENTNOTIFY_ACCOUNT_ID\", \"eventName\": \"$1\", \"logLevel\": \"$2\"}" >/dev/null
}

# delivered_topics prints the topics of the deliveries recorded since the last reset, sorted, on one line.
delivered_topics() {
  curl -fsS "$EVENTNOTIFY_BASE_URL/_mock/deliveries" | grep -o '"eventStreamsTopic":"[^"]*"' | cut -d'"' -f4 | sort | paste -sd' ' -
}

trap '"$tf" destroy -auto-approve -input=false -no-color -var-file="$vars" >/dev/null' EXIT
"$tf" apply -auto-approve -input=false -no-color -var-file="$vars" >/dev/null

curl -fsS -X POST "$EVENTNOTIFY_BASE_URL/_mock/reset" # forget earlier deliveries (and the counters)
fire PROCESS.EXECUTION WARNING # below the module's minimum level (ERROR): no delivery
fire PROCESS.EXECUTION ERROR   # the team's topic
fire ENVIRONMENT.ALERT ERROR   # the topic of the subscription the account held before

got=$(delivered_topics)
want="operations-alerts platform-alerts"
[ "$got" = "$want" ] || { echo "deliveries went to '$got', want '$want'" >&2; exit 1; }
echo "deliveries went to: $got"
