# Terraform 1.12 and later, OpenTofu 1.12 and later: import with a block that
# names the resource's identity (its account, environment id and topic, one
# by one) instead of an id string.
import {
  to = eventnotify_topic_subscriptions.orders_team
  identity = {
    account_id                   = "my-account-id"
    event_streams_environment_id = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
    event_streams_topic          = "orders-alerts"
  }
}
