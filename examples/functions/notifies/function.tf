# Does the on-call topic hear PROCESS.EXECUTION when it fires at ERROR?
resource "eventnotify_subscription" "oncall" {
  event_name                     = "PROCESS.EXECUTION"
  destination_type               = "EVENT_STREAMS"
  log_level                      = "WARNING"
  event_streams_environment_id   = "env-prod"
  event_streams_environment_name = "Production"
  event_streams_topic            = "oncall"
}

output "oncall_hears_errors" {
  # true: WARNING is at or below ERROR, and the subscription is enabled.
  value = provider::eventnotify::notifies(eventnotify_subscription.oncall, "PROCESS.EXECUTION", "ERROR")
}

output "oncall_hears_info" {
  # false: INFO is below the subscription's minimum level.
  value = provider::eventnotify::notifies(eventnotify_subscription.oncall, "PROCESS.EXECUTION", "INFO")
}

# Any object with event_name, log_level and (optionally) enabled will do.
# false: its minimum level, ERROR, is above WARNING.
output "planned_route" {
  value = provider::eventnotify::notifies({ event_name = "ATOM.STATUS", log_level = "ERROR" }, "atom.status", "WARNING")
}
