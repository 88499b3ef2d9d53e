# Terraform 1.5 and later: import with a block, then `terraform plan
# -generate-config-out=generated.tf` writes the configuration, keyed by
# subscription id.
import {
  to = eventnotify_topic_subscriptions.orders_team
  id = "my-account-id/6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b/orders-alerts"
}
