# Every subscription of the provider's account.
data "eventnotify_subscriptions" "all" {}

# Only the disabled subscriptions to ATOM.STATUS (event names compare without regard to case).
data "eventnotify_subscriptions" "paused_atom" {
  event_name = "ATOM.STATUS"
  enabled    = false
}

output "subscription_ids" {
  value = data.eventnotify_subscriptions.all.ids
}

output "paused_atom_topics" {
  value = data.eventnotify_subscriptions.paused_atom.subscriptions[*].event_streams_topic
}

# Who hears PROCESS.EXECUTION when it fires at ERROR: the enabled subscriptions
# to that event whose minimum log level is INFO, WARNING or ERROR.
data "eventnotify_subscriptions" "hear_process_errors" {
  notified_for = {
    event_name = "PROCESS.EXECUTION"
    log_level  = "ERROR"
  }
}

output "process_error_destinations" {
  value = [for s in data.eventnotify_subscriptions.hear_process_errors.subscriptions : "${s.destination_type} ${coalesce(s.event_streams_topic, s.destination_email, "-")}"]
}
