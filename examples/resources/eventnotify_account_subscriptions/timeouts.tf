# A large account on a slow link: allow an hour for the first apply, which
# lists the account and creates and deletes in batches.
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
  }

  timeouts {
    create = "1h"
    update = "1h"
  }
}
