# Back from eventnotify_topic_subscriptions to one eventnotify_subscription per
# entry of orders.tf (keyed by subscription id), in one plan that changes
# nothing on the service (Terraform 1.7+, OpenTofu 1.10+). This file replaces
# the one that declares eventnotify_topic_subscriptions.orders.

# Forget the topic resource. Without `destroy = false`, removing it from the
# configuration would delete every subscription of the topic.
removed {
  from = eventnotify_topic_subscriptions.orders

  lifecycle {
    destroy = false
  }
}

import {
  for_each = local.orders
  to       = eventnotify_subscription.orders[each.key]
  id       = each.key
}

resource "eventnotify_subscription" "orders" {
  for_each = local.orders

  event_name                     = each.value.event_name
  log_level                      = each.value.log_level
  enabled                        = each.value.enabled
  destination_type               = "EVENT_STREAMS"
  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "orders-alerts"
}
