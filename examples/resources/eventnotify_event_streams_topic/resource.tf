# Create a topic in an event streams environment, with a subscription on it
# that the operations team's consumers read from.
#
# The service can only create topics: changing any argument creates the
# topic and subscription again, and `terraform destroy` only forgets them
# (remove them in the event streams environment's own console or API).
resource "eventnotify_event_streams_topic" "process_alerts" {
  environment_id    = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  topic_name        = "process-alerts"
  topic_description = "Failed process executions, for the operations team"
  subscription_name = "ops-process-alerts"
}

# Send the platform's failed process executions to that topic.
resource "eventnotify_subscription" "process_errors" {
  event_name       = "PROCESS.EXECUTION"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"

  event_streams_environment_id   = eventnotify_event_streams_topic.process_alerts.environment_id
  event_streams_environment_name = "Production"
  event_streams_topic            = eventnotify_event_streams_topic.process_alerts.topic_name
}

output "process_alerts_subscriptions" {
  description = "Subscriptions on the topic when Terraform created its own."
  value       = eventnotify_event_streams_topic.process_alerts.subscription_count
}
