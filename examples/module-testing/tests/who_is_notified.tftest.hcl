# Integration tests of who is notified: they apply the module against the mock server, then ask
# the service's own listing, through the notified_for filter of the eventnotify_subscriptions data
# source (helper module tests/notified), which topics hear an event fired at a level. The account
# also holds the seeded subscription of existing-subscriptions.json (ENVIRONMENT.ALERT at ERROR to
# operations-alerts).
provider "eventnotify" {}

variables {
  environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  environment_name = "Production"
  topic            = "platform-alerts"
  events = {
    "ATOM.STATUS"       = "WARNING"
    "PROCESS.EXECUTION" = "ERROR"
  }
}

run "applies_the_module" {}

run "process_errors_reach_the_team" {
  module {
    source = "./tests/notified"
  }

  variables {
    event_name = "PROCESS.EXECUTION"
    log_level  = "ERROR"
  }

  assert {
    condition     = output.topics == tolist(["platform-alerts"])
    error_message = "PROCESS.EXECUTION at ERROR should reach the team's topic, and only it."
  }
}

run "process_warnings_reach_no_one" {
  module {
    source = "./tests/notified"
  }

  variables {
    event_name = "PROCESS.EXECUTION"
    log_level  = "WARNING"
  }

  assert {
    condition     = length(output.topics) == 0
    error_message = "PROCESS.EXECUTION at WARNING is below the module's minimum level: no one should hear it."
  }
}

run "environment_alerts_reach_operations_only" {
  module {
    source = "./tests/notified"
  }

  variables {
    event_name = "environment.alert"
    log_level  = "ERROR"
  }

  assert {
    condition     = output.topics == tolist(["operations-alerts"])
    error_message = "ENVIRONMENT.ALERT should reach the existing operations topic, not the team's."
  }
}

run "pauses_the_subscriptions" {
  variables {
    enabled = false
  }
}

run "paused_subscriptions_notify_no_one" {
  module {
    source = "./tests/notified"
  }

  variables {
    event_name = "ATOM.STATUS"
    log_level  = "ERROR"
  }

  assert {
    condition     = length(output.topics) == 0
    error_message = "Paused subscriptions should notify no one."
  }
}
