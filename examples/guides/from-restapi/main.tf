# The restapi_object of the REST provider, handed to eventnotify_subscription: the
# resource block says what the subscription is, the moved block where its state is.
moved {
  from = restapi_object.atom_status
  to   = eventnotify_subscription.atom_status
}

resource "eventnotify_subscription" "atom_status" {
  event_name                     = "ATOM.STATUS"
  destination_type               = "EVENT_STREAMS"
  log_level                      = "ERROR"
  event_streams_environment_id   = "env-1"
  event_streams_environment_name = "production"
  event_streams_topic            = "atom-status"
  enabled                        = true
}
