# A subscription of the provider's account, by its id:
terraform import eventnotify_subscription.example 3fa85f64-5717-4562-b3fc-2c963f66afa6

# A subscription of another account: <account_id>/<subscription_id>
terraform import eventnotify_subscription.example partner-account/3fa85f64-5717-4562-b3fc-2c963f66afa6
