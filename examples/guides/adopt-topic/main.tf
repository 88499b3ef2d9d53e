# Import every subscription of one event-streams topic, and nothing else of the
# account: the import id is <account_id>/<environment_id>/<topic>. Then
#   terraform plan -generate-config-out=generated.tf
#   terraform apply
# writes the resource, keyed by subscription id, and imports it without a
# request that changes the service. Delete this import block afterwards.
import {
  to = eventnotify_topic_subscriptions.orders
  id = "my-account-id/6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b/orders-alerts"
}
