# A helper module for the tests: who the service notifies when an event fires at a level, read
# through the notified_for filter of the eventnotify_subscriptions data source.
terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = "~> 0.1.0"
    }
  }
}

variable "event_name" {
  type        = string
  description = "The event that fires."
}

variable "log_level" {
  type        = string
  description = "The level it fires at: INFO, WARNING or ERROR."
}

data "eventnotify_subscriptions" "notified" {
  notified_for = {
    event_name = var.event_name
    log_level  = var.log_level
  }
}

output "topics" {
  description = "The event streams topics that hear the event, sorted."
  value       = sort([for s in data.eventnotify_subscriptions.notified.subscriptions : s.event_streams_topic])
}
