# Two teams share one account; each owns the subscriptions of its own topic.
# An apply of one team's resource changes nothing on the other's topic, nor
# any other subscription of the account. The keys are names of your choice;
# renaming one changes nothing on the service.
resource "eventnotify_topic_subscriptions" "orders_team" {
  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "orders-alerts"

  subscriptions = {
    process_errors = {
      event_name = "PROCESS.EXECUTION"
      log_level  = "ERROR"
    }

    deployments = {
      event_name = "ATOM.DEPLOYMENT"
      log_level  = "INFO"
    }
  }
}

resource "eventnotify_topic_subscriptions" "platform_team" {
  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = "platform-events"

  subscriptions = {
    atom_status = {
      event_name = "ATOM.STATUS"
      log_level  = "WARNING"
    }

    # Kept, but paused.
    alerts = {
      event_name = "ENVIRONMENT.ALERT"
      log_level  = "INFO"
      enabled    = false
    }
  }
}
