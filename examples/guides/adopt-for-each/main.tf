# Step 1 of adopting with for_each import blocks (Terraform 1.7+, OpenTofu 1.7+):
# import every existing subscription of the account in one plan. This file reads
# the account into the configuration, which hides drift: step 2 replaces it.
data "eventnotify_subscriptions" "existing" {}

locals {
  # Keyed by subscription id, so that keys stay stable from run to run.
  existing = { for s in data.eventnotify_subscriptions.existing.subscriptions : s.id => s }

  # The arguments that step 2 sets from the literal map.
  arguments = [
    "event_name", "destination_type", "log_level", "event_streams_environment_id",
    "event_streams_environment_name", "event_streams_topic", "enabled",
  ]
}

import {
  for_each = local.existing
  to       = eventnotify_subscription.adopted[each.key]
  id       = each.key
}

resource "eventnotify_subscription" "adopted" {
  for_each = local.existing

  event_name                     = each.value.event_name
  destination_type               = each.value.destination_type
  log_level                      = each.value.log_level
  event_streams_environment_id   = each.value.event_streams_environment_id
  event_streams_environment_name = each.value.event_streams_environment_name
  event_streams_topic            = each.value.event_streams_topic
  enabled                        = each.value.enabled
}

# Step 2 starts from this: terraform output -raw subscriptions_tf > subscriptions.tf
# (a JSON-encoded value is an HCL literal once "${" and "%{" are escaped).
output "subscriptions_tf" {
  description = "The adopted subscriptions as a literal map, for step 2."
  value = join("\n", concat(
    [
      "# The subscriptions adopted from the account, as a literal map keyed by",
      "# subscription id. This map is what Terraform manages: edit it to change them.",
      "locals {",
      "  subscriptions = {",
    ],
    flatten([for id, s in local.existing : concat(
      ["    ${jsonencode(id)} = {"],
      [for name in local.arguments : format("      %-30s = %s", name, replace(jsonencode(s[name]), "/([$%])\\{/", "$1$1{"))],
      ["    }"],
    )]),
    ["  }", "}", ""],
  ))
}
