# Back from eventnotify_account_subscriptions to one eventnotify_subscription
# per entry of subscriptions.tf (keyed by subscription id), in one plan that
# changes nothing on the service (Terraform 1.7+, OpenTofu 1.10+). This file
# replaces the one that declares eventnotify_account_subscriptions.all.

# Forget the account resource. Without `destroy = false`, removing it from the
# configuration would delete every subscription of the account.
removed {
  from = eventnotify_account_subscriptions.all

  lifecycle {
    destroy = false
  }
}

import {
  for_each = local.subscriptions
  to       = eventnotify_subscription.adopted[each.key]
  id       = each.key
}

resource "eventnotify_subscription" "adopted" {
  for_each = local.subscriptions

  event_name                     = each.value.event_name
  destination_type               = each.value.destination_type
  log_level                      = each.value.log_level
  event_streams_environment_id   = each.value.event_streams_environment_id
  event_streams_environment_name = each.value.event_streams_environment_name
  event_streams_topic            = each.value.event_streams_topic
  enabled                        = each.value.enabled
}
