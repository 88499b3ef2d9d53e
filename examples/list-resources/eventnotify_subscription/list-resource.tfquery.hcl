# Terraform 1.14 and later: `terraform query` lists the subscriptions that
# these blocks find, and `terraform query -generate-config-out=generated.tf`
# writes an eventnotify_subscription block and an import block for each.
#
# Together the two blocks find every subscription of the provider's account,
# each once: a subscription that two blocks find would be written twice.

# The enabled subscriptions. Terraform stops at `limit` results (100 when left
# out): raise it for larger accounts.
list "eventnotify_subscription" "enabled" {
  provider = eventnotify
  limit    = 1000

  config {
    enabled = true
  }
}

# The disabled ones. `config` takes the filters of the
# eventnotify_subscriptions data source (event_name, destination_type,
# log_level, enabled, notified_for) and account_id, to list another account that the
# provider's credentials can read:
#
#   account_id = "another-account-id"
list "eventnotify_subscription" "disabled" {
  provider = eventnotify
  limit    = 1000

  config {
    enabled = false
  }
}
