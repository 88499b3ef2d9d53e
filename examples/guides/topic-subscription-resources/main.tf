# The topic's subscriptions, one eventnotify_subscription each, driven by the
# literal map local.orders in orders.tf: keyed by subscription id, each entry
# with the arguments of an eventnotify_topic_subscriptions entry.
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
