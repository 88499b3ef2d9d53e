# After the apply: the moved block and the REST provider are gone (providers.tf is the
# adoption guide's again).
resource "eventnotify_subscription" "atom_status" {
  event_name                     = "ATOM.STATUS"
  destination_type               = "EVENT_STREAMS"
  log_level                      = "ERROR"
  event_streams_environment_id   = "env-1"
  event_streams_environment_name = "production"
  event_streams_topic            = "atom-status"
  enabled                        = true
}
