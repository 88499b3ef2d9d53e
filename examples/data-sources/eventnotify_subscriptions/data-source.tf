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
