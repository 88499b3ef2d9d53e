# The provider's account holds exactly these subscriptions: applying deletes
# every other subscription of the account, and destroying deletes them all.
# The keys (process_errors, ...) are names of your choice; renaming one
# changes nothing on the service.
resource "eventnotify_account_subscriptions" "all" {
  subscriptions = {
    process_errors = {
      event_name       = "PROCESS.EXECUTION"
      destination_type = "EVENT_STREAMS"
      log_level        = "ERROR"

      event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
      event_streams_environment_name = "Production"
      event_streams_topic            = "process-alerts"
    }

    atom_status = {
      event_name          = "ATOM.STATUS"
      destination_type    = "EVENT_STREAMS"
      log_level           = "WARNING"
      event_streams_topic = "platform-events"
    }

    # Kept, but paused.
    deployments = {
      event_name          = "ATOM.DEPLOYMENT"
      destination_type    = "EVENT_STREAMS"
      log_level           = "INFO"
      event_streams_topic = "platform-events"
      enabled             = false
    }
  }
}
