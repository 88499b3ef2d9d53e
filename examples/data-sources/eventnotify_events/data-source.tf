data "eventnotify_events" "all" {}

# Every event name, for example to subscribe to all of them.
output "event_names" {
  value = data.eventnotify_events.all.names
}
