# Integration tests: these apply against the mock server (eventnotify-mock), with the provider
# configured from the EVENTNOTIFY_* lines the mock prints, exported as environment variables.
# The mock starts with the account holding the subscription of existing-subscriptions.json
# (eventnotify-mock -seed tests/existing-subscriptions.json). The test command destroys what
# the runs created at the end of the file.
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

run "creates_the_subscriptions" {
  assert {
    condition     = length(output.subscription_ids) == 2
    error_message = "Expected one subscription per event."
  }

  assert {
    condition     = alltrue([for id in values(output.subscription_ids) : can(regex("^[0-9a-f-]{36}$", id))])
    error_message = "Every subscription should have the id the service assigned."
  }

  assert {
    condition     = eventnotify_subscription.alert["ATOM.STATUS"].created_by != ""
    error_message = "The service should have recorded who created the subscription."
  }
}

run "pauses_them_in_place" {
  variables {
    enabled = false
    # what the first run created, to compare with (OpenTofu reads run outputs only here)
    created_ids = run.creates_the_subscriptions.subscription_ids
  }

  assert {
    condition     = alltrue([for s in eventnotify_subscription.alert : !s.enabled])
    error_message = "Every subscription should be paused."
  }

  assert {
    condition     = output.subscription_ids == var.created_ids
    error_message = "Pausing should update the subscriptions in place, not replace them."
  }
}

run "leaves_other_subscriptions_alone" {
  # A helper module reads the account after the module's runs.
  module {
    source = "./tests/account"
  }

  assert {
    condition     = contains(output.ids, "3f2d9a54-8a7b-4c61-9d0e-5b8f1c2a7e90")
    error_message = "The subscription the account held before should still be there."
  }

  assert {
    condition     = length(output.ids) == 3
    error_message = "The account should hold the existing subscription and the module's two."
  }
}
