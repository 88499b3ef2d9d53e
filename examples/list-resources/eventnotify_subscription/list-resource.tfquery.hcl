# Terraform 1.14 and later: `terraform query` lists the subscriptions that
# these blocks find, and `terraform query -generate-config-out=generated.tf`
# writes an eventnotify_subscription block and an import block for each.

# Every subscription of the provider's account. Terraform stops at `limit`
# results (100 when left out): raise it for larger accounts.
list "eventnotify_subscription" "all" {
  provider = eventnotify
  limit    = 1000
}

# The same filters as the eventnotify_subscriptions data source: here, the
# enabled subscriptions of another account that notify on errors.
list "eventnotify_subscription" "audit_errors" {
  provider = eventnotify

  config {
    account_id = "audit-account-id"
    log_level  = "ERROR"
    enabled    = true
  }
}
