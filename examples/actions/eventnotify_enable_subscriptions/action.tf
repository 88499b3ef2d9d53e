# Terraform 1.14 and later. Turn the subscriptions of the provider's account
# that notify on errors back on:
#
#   terraform apply -invoke=action.eventnotify_enable_subscriptions.errors
action "eventnotify_enable_subscriptions" "errors" {
  config {
    log_level = "ERROR"
  }
}
