# Import every subscription of an account, by the account's id. The imported map
# is keyed by subscription id; write the configuration with keys of your choice
# and the next apply only renames them in state, without a request.
terraform import eventnotify_account_subscriptions.all my-account-id
