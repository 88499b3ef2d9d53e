# Adopt every existing subscription of the account in one plan (Terraform 1.7+).
data "eventnotify_subscriptions" "existing" {}

locals {
  # Keyed by subscription id, so that keys stay stable from run to run.
  existing = { for s in data.eventnotify_subscriptions.existing.subscriptions : s.id => s }
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
