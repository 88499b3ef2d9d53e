# Plan-only routing tests: which events reach the team's topic at which level, answered by the
# provider's functions (provider::eventnotify::notifies and levels_notified) that the module calls
# in its levels_heard output. The functions need no service, so they run under mock_provider
# too: these tests need no mock server (Terraform 1.8 and later, OpenTofu 1.8 and later). The
# assertions read the module's output rather than calling the functions themselves.
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

run "each_event_reaches_the_topic_from_its_minimum_level" {
  command = plan

  assert {
    condition     = output.levels_heard["ATOM.STATUS"] == ["WARNING", "ERROR"]
    error_message = "ATOM.STATUS should reach the topic at WARNING and ERROR, not at INFO."
  }

  assert {
    condition     = output.levels_heard["PROCESS.EXECUTION"] == ["ERROR"]
    error_message = "PROCESS.EXECUTION should reach the topic at ERROR only."
  }
}

run "every_level_when_the_minimum_is_info" {
  command = plan

  variables {
    events = { "PROCESS.EXECUTION" = "INFO" }
  }

  assert {
    condition     = output.levels_heard["PROCESS.EXECUTION"] == ["INFO", "WARNING", "ERROR"]
    error_message = "A subscription at INFO should hear every level."
  }
}

run "paused_subscriptions_notify_no_one" {
  command = plan

  variables {
    enabled = false
  }

  assert {
    condition     = alltrue([for levels in values(output.levels_heard) : length(levels) == 0])
    error_message = "Paused subscriptions should reach the topic at no level."
  }
}
