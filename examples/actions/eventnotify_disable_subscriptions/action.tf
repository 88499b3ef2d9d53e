# Terraform 1.14 and later. Pause the subscriptions of the provider's account
# that notify on errors:
#
#   terraform apply -invoke=action.eventnotify_disable_subscriptions.errors
action "eventnotify_disable_subscriptions" "errors" {
  config {
    log_level = "ERROR"
  }
}

# Every filter is optional, and a subscription is paused when it matches every
# filter given; with none, every subscription of the account is paused.
variable "audit_account_id" {
  type        = string
  description = "The account whose subscriptions the audit_status action pauses; null (the default) is the provider's account_id. The provider's user needs access to it."
  default     = null
}

action "eventnotify_disable_subscriptions" "audit_status" {
  config {
    account_id = var.audit_account_id
    event_name = "ATOM.STATUS"
    ids = [
      "3fa85f64-5717-4562-b3fc-2c963f66afa6",
    ]
  }
}
