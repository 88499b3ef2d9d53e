# The topic's subscriptions, one eventnotify_subscription each, driven by the
# literal map local.orders in orders.tf: keyed by subscription id, each entry
# with the arguments of an entry of eventnotify_topic_subscriptions (every
# argument of the subscription but its destination, which the topic fixes):
#
#   locals {
#     orders = {
#       "3fa85f64-5717-4562-b3fc-2c963f66afa6" = {
#         event_name = "PROCESS.EXECUTION"
#         # ... the entry's other arguments
#       }
#     }
#   }
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
