# A helper module for the tests: what the account holds, read through the list operation.
terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = "~> 0.1.0"
    }
  }
}

data "eventnotify_subscriptions" "all" {}

output "ids" {
  description = "Ids of every subscription in the account."
  value       = data.eventnotify_subscriptions.all.ids
}
