# Terraform (and OpenTofu): one provider block, and the account on each
# module's resources. Every account shares the provider's rate limit.
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

provider "eventnotify" {}

module "alerts" {
  source   = "../alerts"
  for_each = var.accounts

  account_id = each.value
  topic      = "alerts-${each.key}"
}
