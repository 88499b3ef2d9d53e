# A small module that sends a team's platform alerts to its event streams topic: one
# subscription per event, each with its own minimum log level. tests/ holds its tests:
# `terraform test` (Terraform 1.8 and later: the module calls provider functions) or
# `tofu test` (OpenTofu 1.8 and later) runs them; see the guide "Testing modules that use
# the provider".
terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = "~> 0.1.0"
    }
  }
}

resource "eventnotify_subscription" "alert" {
  for_each = var.events

  event_name       = each.key
  destination_type = "EVENT_STREAMS"
  log_level        = each.value
  enabled          = var.enabled

  event_streams_environment_id   = var.environment_id
  event_streams_environment_name = var.environment_name
  event_streams_topic            = var.topic
}

variable "events" {
  type        = map(string)
  description = "Minimum log level (INFO, WARNING or ERROR) by event name, as the eventnotify_events data source lists them."

  validation {
    condition     = alltrue([for level in values(var.events) : contains(["INFO", "WARNING", "ERROR"], level)])
    error_message = "Each log level must be INFO, WARNING or ERROR."
  }
}

variable "environment_id" {
  type        = string
  description = "Id of the event streams environment that receives the alerts."
}

variable "environment_name" {
  type        = string
  description = "Name of that event streams environment, for people."
}

variable "topic" {
  type        = string
  description = "Event streams topic that receives the alerts."
}

variable "enabled" {
  type        = bool
  description = "Whether the subscriptions are active."
  default     = true
}

output "subscription_ids" {
  description = "The subscriptions' ids, by event name."
  value       = { for event, s in eventnotify_subscription.alert : event => s.id }
}

output "levels_heard" {
  description = "By event name, the levels at which the event reaches the team's topic (none while the subscriptions are paused), by the service's minimum-level rule."
  value = {
    for event, s in eventnotify_subscription.alert : event => [
      for level in provider::eventnotify::levels_notified("INFO") : level
      if provider::eventnotify::notifies(s, event, level)
    ]
  }
}
