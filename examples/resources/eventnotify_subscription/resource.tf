# Notify an event streams topic of every failed process execution.
resource "eventnotify_subscription" "process_errors" {
  event_name       = "PROCESS.EXECUTION"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"

  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "process-alerts"
}

# One subscription per event of the catalogue, to a staging topic, paused for now.
data "eventnotify_events" "all" {}

resource "eventnotify_subscription" "all_events" {
  for_each = toset(data.eventnotify_events.all.names)

  event_name       = each.value
  destination_type = "EVENT_STREAMS"
  log_level        = "WARNING"
  enabled          = false

  event_streams_environment_id   = "0d4c7a1e-5b2f-4f6e-8c3d-9a1b2c3d4e5f"
  event_streams_environment_name = "Staging"
  event_streams_topic            = "platform-events"
}

# A subscription in another account than the provider's: set account_id.
# Changing account_id later replaces the subscription.
resource "eventnotify_subscription" "audit" {
  account_id       = var.audit_account_id
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "INFO"

  event_streams_environment_id   = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"
  event_streams_environment_name = "Audit"
  event_streams_topic            = "atom-status-audit"
}

variable "audit_account_id" {
  type        = string
  description = "Account that holds the audit subscriptions."
}
