# The module each account gets: its alerting subscriptions. It takes the provider
# from its caller, and an account_id that the one-provider way sets (null: the
# provider's account, which the provider-for_each way sets instead).
terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = "~> 0.1.0"
    }
  }
}

variable "account_id" {
  type        = string
  default     = null
  description = "Account to manage; null for the provider's account_id."
}

variable "topic" {
  type        = string
  description = "Event-streams topic that receives the account's alerts."
}

resource "eventnotify_topic_subscriptions" "alerts" {
  account_id = var.account_id

  event_streams_environment_id   = "6e5f4c3a-0b1d-4e2f-9a8b-7c6d5e4f3a2b"
  event_streams_environment_name = "Production"
  event_streams_topic            = var.topic

  subscriptions = {
    process_errors = { event_name = "PROCESS.EXECUTION", log_level = "ERROR" }
    atom_status    = { event_name = "ATOM.STATUS", log_level = "WARNING" }
  }
}
