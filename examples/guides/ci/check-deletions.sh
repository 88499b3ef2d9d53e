#!/usr/bin/env bash
# Fails when the saved plan tfplan deletes a subscription that approved-deletions.txt (one
# subscription id a line, reviewed like code) does not list, and names each one. It reads what
# the plan itself holds: the ids a first apply deletes (takeover.deletes), the entries an apply
# removes from a map, and every entry of a resource destroyed or replaced.
set -euo pipefail
terraform show -json tfplan > tfplan.json
jq -r '
  .resource_changes[]
  | select(.type == "eventnotify_account_subscriptions" or .type == "eventnotify_topic_subscriptions")
  | .address as $address
  | .change as $c
  | if ($c.actions | index("create")) and ($c.after_unknown.takeover == true) then
      "\($address): the plan cannot list what the first apply deletes (account_id or an entry is known only at apply)"
    else
      (if ($c.actions | index("create")) then $c.after.takeover.deletes[] else empty end),
      ([($c.before.subscriptions // {})[].id] - [($c.after.subscriptions // {})[].id | strings])[]
    end
' tfplan.json | sort -u > planned-deletions.txt
touch approved-deletions.txt
unapproved=$(sort -u approved-deletions.txt | comm -23 planned-deletions.txt -)
if [ -n "$unapproved" ]; then
  echo "The plan deletes subscriptions that approved-deletions.txt does not list:" >&2
  echo "$unapproved" >&2
  exit 1
fi
echo "Every subscription the plan deletes is approved ($(wc -l < planned-deletions.txt) in all)."
