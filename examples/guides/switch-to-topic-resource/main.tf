# To the topic resource, in one plan that changes nothing on the service
# (Terraform 1.7+, OpenTofu 1.10+). Replaces main.tf; orders.tf stays.

# Forget the per-subscription resources: their subscriptions stay.
removed {
  from = eventnotify_subscription.orders

  lifecycle {
    destroy = false
  }
}

# The import keys the map by subscription id, as local.orders is: no change.
import {
  to = eventnotify_topic_subscriptions.orders
  id = "my-account-id/6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b/orders-alerts"
}

resource "eventnotify_topic_subscriptions" "orders" {
  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "orders-alerts"
  subscriptions                  = local.orders

  # Destroying this resource deletes every subscription of the topic.
  lifecycle {
    prevent_destroy = true
  }
}
