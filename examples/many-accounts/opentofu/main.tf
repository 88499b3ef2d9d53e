# OpenTofu 1.9 and later: one provider block with for_each, an instance per
# account, all with the credentials of the EVENTNOTIFY_* environment variables.
terraform {
  required_providers {
    eventnotify = {
      source  = "eventnotify/eventnotify"
      version = "~> 0.1.0"
    }
  }
}

variable "accounts" {
  type        = map(string)
  description = "Accounts to manage, by a short name: { payments = \"acc-payments\" }."
}

provider "eventnotify" {
  alias      = "by_account"
  for_each   = var.accounts
  account_id = each.value
}

module "alerts" {
  source   = "../alerts"
  for_each = var.accounts
  providers = {
    eventnotify = eventnotify.by_account[each.key]
  }

  topic = "alerts-${each.key}"
}
