# Give the create more time than its default (a slow service, a low
# max_requests_per_second), and fail a refresh that takes longer than 5 minutes.
resource "eventnotify_subscription" "deployments" {
  event_name       = "ATOM.DEPLOYMENT"
  destination_type = "EVENT_STREAMS"
  log_level        = "INFO"

  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "deployments"

  timeouts {
    create = "45m"
    read   = "5m"
  }
}
