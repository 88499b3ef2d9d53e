# The adopted subscriptions, one eventnotify_subscription each (step 2 of
# adopting with for_each import blocks): step 1's resource, now driven by the
# literal map in subscriptions.tf (written from step 1's output) instead of the
# live data source, so that a change made outside Terraform shows up in the plan.
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
