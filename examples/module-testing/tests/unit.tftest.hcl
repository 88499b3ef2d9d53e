# Plan-only unit tests: mock_provider stands in for the provider, so these need no service,
# no credentials and no mock server (Terraform 1.8 and later, OpenTofu 1.8 and later: the module calls the provider's functions).
# Run them alone with `terraform test -filter=tests/unit.tftest.hcl`.
mock_provider "eventnotify" {}

variables {
  environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  environment_name = "Production"
  topic            = "platform-alerts"
  events = {
    "ATOM.STATUS"       = "WARNING"
    "PROCESS.EXECUTION" = "ERROR"
  }
}

run "one_subscription_per_event" {
  command = plan

  assert {
    condition     = length(eventnotify_subscription.alert) == 2
    error_message = "Expected one subscription per event."
  }

  assert {
    condition     = eventnotify_subscription.alert["PROCESS.EXECUTION"].log_level == "ERROR"
    error_message = "PROCESS.EXECUTION should notify at ERROR."
  }

  assert {
    condition = alltrue([for s in eventnotify_subscription.alert :
    s.event_streams_topic == "platform-alerts" && s.destination_type == "EVENT_STREAMS" && s.enabled])
    error_message = "Every subscription should go to the team's topic, enabled."
  }
}

run "rejects_an_unknown_log_level" {
  command = plan

  variables {
    events = { "ATOM.STATUS" = "DEBUG" }
  }

  expect_failures = [var.events]
}
