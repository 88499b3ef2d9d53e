# Back from eventnotify_topic_subscriptions to one eventnotify_subscription per
# entry of orders.tf (keyed by subscription id), in one plan that changes
# nothing on the service (Terraform 1.7+, OpenTofu 1.10+). main.tf is the
# starting point's again, the file that declares eventnotify_subscription.orders;
# this file goes next to it, and can be deleted after the apply.

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
