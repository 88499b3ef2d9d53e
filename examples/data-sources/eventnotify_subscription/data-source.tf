data "eventnotify_subscription" "example" {
  id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
}

output "example_topic" {
  value = data.eventnotify_subscription.example.event_streams_topic
}
