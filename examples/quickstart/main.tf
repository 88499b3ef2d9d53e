# The quick start: `make demo` applies this against the mock server, with the
# provider configured from the EVENTNOTIFY_* variables the mock prints.
terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = "~> 0.1.0"
    }
  }
}

provider "eventnotify" {}

data "eventnotify_events" "all" {}
data "eventnotify_log_levels" "all" {}
data "eventnotify_destination_types" "all" {}

# A topic in an event streams environment, with a subscription on it.
resource "eventnotify_event_streams_topic" "platform_events" {
  environment_id    = "env-quickstart"
  topic_name        = "platform-events"
  topic_description = "Every platform event of the quick start"
  subscription_name = "quickstart-consumer"
}

# One subscription per event the catalogue offers, all to that topic.
resource "eventnotify_subscription" "per_event" {
  for_each = toset(data.eventnotify_events.all.names)

  event_name                     = each.value
  destination_type               = "EVENT_STREAMS"
  log_level                      = "WARNING"
  event_streams_environment_id   = eventnotify_event_streams_topic.platform_events.environment_id
  event_streams_environment_name = "Quick start"
  event_streams_topic            = eventnotify_event_streams_topic.platform_events.topic_name
}

# Everything that is now in the account, read back through the list operation.
data "eventnotify_subscriptions" "all" {
  depends_on = [eventnotify_subscription.per_event]
}

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

output "subscriptions" {
  description = "The subscriptions created, by event name."
  value       = { for name, s in eventnotify_subscription.per_event : name => s.id }
}

output "topic" {
  description = "The topic created, and how many subscriptions it has."
  value = {
    id                 = eventnotify_event_streams_topic.platform_events.id
    subscription_count = eventnotify_event_streams_topic.platform_events.subscription_count
  }
}

output "subscriptions_in_account" {
  description = "How many subscriptions the account holds."
  value       = length(data.eventnotify_subscriptions.all.ids)
}
