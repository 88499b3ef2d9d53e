# Destroying the resource, or replacing it, deletes every subscription of the
# account. Guard against it, and build the map from a local value: one entry
# per event, keyed by the event's name.
locals {
  production_events = {
    "PROCESS.EXECUTION" = "ERROR"
    "ATOM.STATUS"       = "WARNING"
  }
}

resource "eventnotify_account_subscriptions" "production" {
  account_id = "production-account"

  subscriptions = {
    for event, level in local.production_events : lower(event) => {
      event_name          = event
      destination_type    = "EVENT_STREAMS"
      log_level           = level
      event_streams_topic = "production-events"
    }
  }

  lifecycle {
    prevent_destroy = true
  }
}
