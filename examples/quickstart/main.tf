# The quick start: `make demo` applies this against the mock server, with the
# provider configured from the EVENTNOTIFY_* variables the mock prints.
terraform {
  required_providers {
    eventnotify = {
      source = "eventnotify/eventnotify"
    }
  }
}

provider "eventnotify" {}

data "eventnotify_events" "all" {}
data "eventnotify_log_levels" "all" {}
data "eventnotify_destination_types" "all" {}

output "events" {
  description = "Events that subscriptions can refer to."
  value       = data.eventnotify_events.all.names
}

output "log_levels" {
  description = "Minimum log levels a subscription can use."
  value       = data.eventnotify_log_levels.all.names
}

output "destination_types" {
  description = "Where notifications can go."
  value       = data.eventnotify_destination_types.all.names
}
