# Back from the topic resource, next to the per-subscription main.tf
# (Terraform 1.7+, OpenTofu 1.10+). Delete this file after the apply.

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
