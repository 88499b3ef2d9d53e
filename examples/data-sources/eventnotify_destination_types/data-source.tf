data "eventnotify_destination_types" "all" {}

output "event_streams_supported" {
  value = contains(data.eventnotify_destination_types.all.names, "EVENT_STREAMS")
}
