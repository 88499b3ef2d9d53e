# Notify an event streams topic of every failed process execution.
resource "eventnotify_subscription" "process_errors" {
  event_name       = "PROCESS.EXECUTION"
  destination_type = "EVENT_STREAMS"
  log_level        = "ERROR"

  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "process-alerts"
}

# One subscription per event of the catalogue, paused for now.
data "eventnotify_events" "all" {}

resource "eventnotify_subscription" "all_events" {
  for_each = toset(data.eventnotify_events.all.names)

  event_name          = each.value
  destination_type    = "EVENT_STREAMS"
  log_level           = "WARNING"
  event_streams_topic = "platform-events"
  enabled             = false
}

# A subscription in another account than the provider's: set account_id.
# Changing account_id later replaces the subscription.
resource "eventnotify_subscription" "audit" {
  account_id       = var.audit_account_id
  event_name       = "ATOM.STATUS"
  destination_type = "EVENT_STREAMS"
  log_level        = "INFO"
}

variable "audit_account_id" {
  type        = string
  description = "Account that holds the audit subscriptions."
}
